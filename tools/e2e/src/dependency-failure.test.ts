import assert from 'node:assert/strict';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import { createDatabase, type Database, type DemoTokens, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import { INTERNAL_HEADER, INTERNAL_PATH, internalToken } from '@workcell/internal-api';
import { postgresRefusing, redisReplying, type RunningApp, startApp, TcpProxy, testConfig, useTestEnvironment } from '@workcell/testing';

/**
 * Issue 6: with PostgreSQL unreachable, requests answer 503 `service_unavailable` with Retry-After (never a
 * 500) and recover by themselves when it returns. The API apps reach PostgreSQL through a proxy that the test
 * cuts; the auth service keeps its own connection, so authentication succeeds and the failure is the API's
 * own query (the case a 500 would hide in). Redis loss is covered in rate-limit.test.ts; cuts and black holes of
 * every dependency under load in dependency-faults.test.ts.
 *
 * Issue 25: a dependency that is up but refuses the work is unavailable too: PostgreSQL refusing every session
 * with SQLSTATE 53300 (too many clients) and Redis answering -LOADING, both impostors behind the harness's proxy.
 */

const env = useTestEnvironment();

let database: Database;
let tokens: DemoTokens;
beforeAll(async () => {
  database = createDatabase(env.config, { poolSize: 2 });
  tokens = (await seedDemoWorkspaceIfEmpty(database, env.config))!;
});
afterAll(async () => {
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

describe('PostgreSQL unreachable from the API apps', () => {
  let auth: RunningApp;
  let worker: RunningApp;
  let proxy: TcpProxy;
  let v1: RunningApp;
  let v0: RunningApp;

  beforeAll(async () => {
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
  });

  it('v1 and v0 answer 503 with Retry-After in their own error shapes, then recover without a restart', async () => {
    const v1Headers = { authorization: `Bearer ${tokens.personalAccessToken}` };
    const v0Headers = { authorization: `Bearer ${tokens.v0TeamToken}` };
    assert.equal((await fetch(`${v1.url}/v1/tags`, { headers: v1Headers })).status, 200);
    assert.equal((await fetch(`${v0.url}/tasks`, { headers: v0Headers })).status, 200);
    await proxy.cut();
    try {
      for (const [method, path] of [
        ['GET', '/v1/tags'],
        ['POST', '/v1/tags'],
        ['GET', '/v1/projects'],
      ] as const) {
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

describe('PostgreSQL refusing sessions (53300) and Redis loading its dataset', () => {
  const TIMEOUT_MS = 1_000;
  let pg: TcpProxy;
  let redis: TcpProxy;
  let auth: RunningApp;
  let worker: RunningApp;
  let v1: RunningApp;
  let v0: RunningApp;
  let seq = 0;

  beforeAll(async () => {
    // The API apps and the auth service reach both through the proxies; the worker keeps its own connections.
    pg = await TcpProxy.start(env.databaseUrl);
    redis = await TcpProxy.start(env.config.redis.url);
    const base = { DATABASE_URL: pg.rewrite(env.databaseUrl), REDIS_URL: redis.rewrite(env.config.redis.url), REDIS_PREFIX: env.redisPrefix, DEPENDENCY_TIMEOUT_MS: String(TIMEOUT_MS) };
    auth = await startApp(createAuthApp, testConfig(base));
    worker = await startApp(createWorkerApp, env.config);
    const config = testConfig({ ...base, AUTH_INTERNAL_URL: auth.url, WORKER_INTERNAL_URL: worker.url });
    v1 = await startApp(createApiV1App, config);
    v0 = await startApp(createApiV0App, config);
  });
  afterAll(async () => {
    for (const app of [v0, v1, worker, auth]) await app?.close();
    for (const proxy of [redis, pg]) await proxy?.close();
  });

  const requests = () => {
    const v1Headers = { authorization: `Bearer ${tokens.personalAccessToken}`, 'content-type': 'application/json' };
    const v0Headers = { authorization: `Bearer ${tokens.v0TeamToken}`, 'content-type': 'application/json' };
    return [
      { label: 'v1 GET /v1/tags', url: `${v1.url}/v1/tags`, init: { headers: v1Headers } },
      { label: 'v1 POST /v1/tags', url: `${v1.url}/v1/tags`, init: { method: 'POST', headers: v1Headers, body: JSON.stringify({ name: `refused ${++seq}` }) } },
      { label: 'v0 GET /tasks', url: `${v0.url}/tasks`, init: { headers: v0Headers } },
      { label: 'v0 POST /tasks', url: `${v0.url}/tasks`, init: { method: 'POST', headers: v0Headers, body: JSON.stringify({ title: `refused ${++seq}` }) } },
      // Served by the auth service over the internal channel.
      { label: 'v1 POST /v1/credentials', url: `${v1.url}/v1/credentials`, init: { method: 'POST', headers: v1Headers, body: JSON.stringify({ name: `refused ${++seq}`, scopes: ['tags:read'] }) } },
    ];
  };

  /** Every request answers 503 with Retry-After in its generation's error shape, within DEPENDENCY_TIMEOUT_MS. */
  async function assertUnavailable(state: string): Promise<void> {
    for (const { label, url, init } of requests()) {
      const started = performance.now();
      const res = await fetch(url, init);
      const ms = performance.now() - started;
      const text = await res.text();
      const what = `${state}: ${label} answered ${res.status} after ${Math.round(ms)} ms: ${text.slice(0, 300)}`;
      assert.equal(res.status, 503, what);
      assert.ok(ms < TIMEOUT_MS, what);
      assert.equal(res.headers.get('retry-after'), '1', what);
      assert.doesNotMatch(text, /53300|too many clients|LOADING|prisma|ioredis/i, `${what}: no internals in the error`);
      if (label.startsWith('v1')) {
        const body = JSON.parse(text) as { errors: { code: string }[]; meta: { requestId: string } };
        assert.equal(body.errors[0]?.code, 'service_unavailable', what);
        assert.equal(body.meta.requestId, res.headers.get('x-request-id'), what);
      } else {
        assert.deepEqual(JSON.parse(text), { error: { code: 'service_unavailable', message: 'a dependency is temporarily unavailable; retry shortly' } }, what);
      }
    }
    for (const app of [v1, v0, auth]) assert.equal((await fetch(`${app.url}/readyz`)).status, 503, `${state}: /readyz of ${app.url}`);
  }

  async function assertRecovered(state: string): Promise<void> {
    for (const { label, url, init } of requests()) {
      assert.equal(await waitFor(async () => (await fetch(url, init)).status, label.includes('POST') ? 201 : 200), label.includes('POST') ? 201 : 200, `${label} after ${state}`);
    }
  }

  it('PostgreSQL refusing every session with SQLSTATE 53300: both generations, a read and a write each, and the auth service answer 503 with Retry-After, then recover', async () => {
    await assertRecovered('start-up');
    await pg.impersonate(postgresRefusing());
    try {
      await assertUnavailable('PostgreSQL refusing sessions');
      // The auth service's internal channel says so itself (503, Retry-After), not 500.
      const started = performance.now();
      const res = await fetch(`${auth.url}${INTERNAL_PATH}/identity.authenticateCredential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [INTERNAL_HEADER]: internalToken(env.config) },
        body: JSON.stringify({ token: tokens.personalAccessToken }),
      });
      const body = (await res.json()) as { error: { data: { code: string } } };
      assert.equal(res.status, 503, JSON.stringify(body));
      assert.equal(body.error.data.code, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers.get('retry-after'), '1');
      assert.ok(performance.now() - started < TIMEOUT_MS);
    } finally {
      await pg.restore();
    }
    await assertRecovered('PostgreSQL refusing sessions');
  });

  it('Redis answering -LOADING to every command: both generations answer 503 with Retry-After, then recover', async () => {
    await assertRecovered('start-up');
    await redis.impersonate(redisReplying());
    try {
      await assertUnavailable('Redis loading');
    } finally {
      await redis.restore();
    }
    await assertRecovered('Redis loading');
  });
});
