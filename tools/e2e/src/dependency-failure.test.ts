import assert from 'node:assert/strict';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import { createDatabase, type Database, type DemoTokens, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import { type RunningApp, startApp, TcpProxy, testConfig, useTestEnvironment } from '@workcell/testing';

/**
 * Issue 6: with PostgreSQL unreachable, requests answer 503 `service_unavailable` with Retry-After (never a
 * 500) and recover by themselves when it returns. The API apps reach PostgreSQL through a proxy that the test
 * cuts; the auth service keeps its own connection, so authentication succeeds and the failure is the API's
 * own query (the case a 500 would hide in). Redis loss is covered in rate-limit.test.ts; cuts and black holes of
 * every dependency under load in dependency-faults.test.ts.
 */

const env = useTestEnvironment();

describe('PostgreSQL unreachable from the API apps', () => {
  let database: Database;
  let tokens: DemoTokens;
  let auth: RunningApp;
  let worker: RunningApp;
  let proxy: TcpProxy;
  let v1: RunningApp;
  let v0: RunningApp;

  beforeAll(async () => {
    database = createDatabase(env.config, { poolSize: 2 });
    tokens = (await seedDemoWorkspaceIfEmpty(database, env.config))!;
    auth = await startApp(createAuthApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
    proxy = await TcpProxy.start(env.databaseUrl);
    const config = testConfig({
      DATABASE_URL: proxy.rewrite(env.databaseUrl),
      REDIS_PREFIX: env.redisPrefix,
      AUTH_INTERNAL_URL: auth.url,
      WORKER_INTERNAL_URL: worker.url,
      DEPENDENCY_TIMEOUT_MS: '500',
    });
    v1 = await startApp(createApiV1App, config);
    v0 = await startApp(createApiV0App, config);
  });
  afterAll(async () => {
    for (const app of [v0, v1, worker, auth]) await app?.close();
    await proxy?.close();
    await database?.close();
  });

  const waitFor = async (probe: () => Promise<number>, status: number) => {
    let last = 0;
    for (let i = 0; i < 100 && last !== status; i++) {
      last = await probe();
      if (last !== status) await new Promise((r) => setTimeout(r, 100));
    }
    return last;
  };

  it('v1 and v0 answer 503 with Retry-After in their own error shapes, then recover without a restart', async () => {
    const v1Headers = { authorization: `Bearer ${tokens.personalAccessToken}` };
    const v0Headers = { authorization: `Bearer ${tokens.v0TeamToken}` };
    assert.equal((await fetch(`${v1.url}/v1/tags`, { headers: v1Headers })).status, 200);
    assert.equal((await fetch(`${v0.url}/tasks`, { headers: v0Headers })).status, 200);
    await proxy.cut();
    try {
      for (const [method, path] of [['GET', '/v1/tags'], ['POST', '/v1/tags'], ['GET', '/v1/projects']] as const) {
        const down = await fetch(`${v1.url}${path}`, { method, headers: { ...v1Headers, 'content-type': 'application/json' }, ...(method === 'POST' ? { body: JSON.stringify({ name: 'x' }) } : {}) });
        assert.equal(down.status, 503, `${method} ${path}`);
        assert.ok(Number(down.headers.get('retry-after')) >= 1);
        const body = (await down.json()) as { errors: { code: string; detail: string }[]; meta: { requestId: string } };
        assert.equal(body.errors[0]?.code, 'service_unavailable');
        assert.doesNotMatch(body.errors[0]?.detail ?? '', /ECONN|postgres|prisma|at /i, 'no internals in the error');
        assert.equal(body.meta.requestId, down.headers.get('x-request-id'));
      }
      const legacy = await fetch(`${v0.url}/tasks`, { headers: v0Headers });
      assert.equal(legacy.status, 503);
      assert.ok(Number(legacy.headers.get('retry-after')) >= 1);
      assert.deepEqual(Object.keys((await legacy.json()) as object), ['error']);
    } finally {
      await proxy.restore();
    }
    assert.equal(await waitFor(async () => (await fetch(`${v1.url}/v1/tags`, { headers: v1Headers })).status, 200), 200);
    assert.equal(await waitFor(async () => (await fetch(`${v0.url}/tasks`, { headers: v0Headers })).status, 200), 200);
  });
});
