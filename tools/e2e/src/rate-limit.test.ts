import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import { createDatabase, type Database, type DemoTokens, issueCredential, issueTeamToken, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import { type RunningApp, startApp, TcpProxy, testConfig, useTestEnvironment } from '@workcell/testing';

const env = useTestEnvironment();

/** The status of a request sent from another loopback address (`localAddress`): a client address of its own. */
function statusFrom(localAddress: string, url: string, method: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('rate limits shared through Redis (contract 8)', () => {
  let database: Database;
  let tokens: DemoTokens;
  let auth: RunningApp;
  let worker: RunningApp;
  const apps: RunningApp[] = [];
  const cell = (extra: Record<string, string> = {}) =>
    testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, AUTH_INTERNAL_URL: auth.url, WORKER_INTERNAL_URL: worker.url, ...extra });

  beforeAll(async () => {
    database = createDatabase(env.config, { poolSize: 2 });
    tokens = (await seedDemoWorkspaceIfEmpty(database, env.config))!;
    auth = await startApp(createAuthApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
  });
  afterAll(async () => {
    for (const app of [...apps, worker, auth]) await app.close();
    await database.close();
  });

  it('v0: 100 requests per minute per token and path, across two instances, then 429 with Retry-After', async () => {
    const a = await startApp(createApiV0App, cell());
    const b = await startApp(createApiV0App, cell());
    apps.push(a, b);
    const headers = { authorization: `Bearer ${tokens.v0TeamToken}` };
    // Stay clear of a minute boundary so all 101 requests fall into one window.
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 15_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await fetch(`${(i % 2 ? a : b).url}/teams`, { headers })).status);
    assert.deepEqual([...new Set(statuses)], [200]);
    const limited = await fetch(`${a.url}/teams`, { headers });
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.deepEqual(Object.keys(((await limited.json()) as { error: object }).error).sort(), ['code', 'message']);
    // Another path, and another token, have budgets of their own.
    assert.equal((await fetch(`${b.url}/teams/`, { headers })).status !== 429, true);
    assert.notEqual((await fetch(`${b.url}/teams`, { headers: { authorization: 'Bearer other' } })).status, 429);
  });

  it('v1: every response carries the rate-limit headers; over the limit 429 rate_limit_exceeded', async () => {
    const a = await startApp(createApiV1App, cell({ V1_RATE_LIMIT_READ_PER_MINUTE: '3' }));
    const b = await startApp(createApiV1App, cell({ V1_RATE_LIMIT_READ_PER_MINUTE: '3' }));
    apps.push(a, b);
    const headers = { authorization: `Bearer ${tokens.serviceAccountCredential}` };
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 5_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    const first = await fetch(`${a.url}/v1/workspace`, { headers });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-ratelimit-limit'), '3');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '2');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    assert.ok(reset > Date.now() && reset <= Date.now() + 60_000, 'reset is Unix time in ms within the window');
    // An error of an authenticated operation (here a task that does not exist) counts like a success.
    const notFound = await fetch(`${b.url}/v1/tasks/${randomUUID()}`, { headers });
    assert.ok(notFound.status >= 400 && notFound.status < 500, String(notFound.status));
    assert.equal(notFound.headers.get('x-ratelimit-remaining'), '1', 'errors carry the headers, and instances share the count');
    assert.equal((await fetch(`${a.url}/v1/workspace`, { headers })).status, 200);
    const limited = await fetch(`${b.url}/v1/workspace`, { headers });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    const body = (await limited.json()) as { errors: { code: string; status: string }[]; meta: { requestId: string } };
    assert.equal(body.errors[0]?.code, 'rate_limit_exceeded');
    assert.equal(body.meta.requestId, limited.headers.get('x-request-id'));
    // Writes have their own budget.
    const write = await fetch(`${a.url}/v1/auth/context`, { method: 'DELETE', headers: { authorization: 'Bearer nobody' } });
    assert.notEqual(write.status, 429);
  });

  /** A team token of its own (the demo token's /teams budget is spent by the first test). */
  const freshTeamToken = () => inTransaction(database, (tx) => issueTeamToken(tx, env.config, { workspaceId: tokens.workspaceId, name: `rl-${randomUUID()}`, createdByMemberId: null }));

  it('v0: one budget per token and canonical path, however the scheme or the path is spelled', async () => {
    const api = await startApp(createApiV0App, cell());
    apps.push(api);
    const token = await freshTeamToken();
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 15_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    const schemes = ['Bearer', 'bearer', 'BEARER'];
    const paths = ['/teams', '/team%73', '/%74eams', '/teams?page=1'];
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${api.url}${paths[i % paths.length]}`, { headers: { authorization: `${schemes[i % schemes.length]} ${token}` } });
      statuses.push(res.status);
    }
    assert.deepEqual([...new Set(statuses)], [200], 'every spelling is served');
    for (const path of paths) {
      for (const scheme of schemes) {
        const limited = await fetch(`${api.url}${path}`, { headers: { authorization: `${scheme} ${token}` } });
        assert.equal(limited.status, 429, `${scheme} ${path} shares the one budget`);
      }
    }
  });

  it('v0: refused tokens are limited by client address and path, and never block a valid token from that address', async () => {
    const api = await startApp(createApiV0App, cell());
    apps.push(api);
    const token = await freshTeamToken();
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 15_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    const guess = () => fetch(`${api.url}/tags`, { headers: { authorization: `Bearer wc_v0_${randomUUID().replaceAll('-', '')}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await guess()).status);
    assert.deepEqual([...new Set(statuses)], [401]);
    const limited = await guess();
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    // A valid token from the same address and path is limited by its own budget only: first seen by this instance
    // (looked up), then kept (one Redis round trip).
    for (let i = 0; i < 2; i++) assert.equal((await fetch(`${api.url}/tags`, { headers: { authorization: `Bearer ${token}` } })).status, 200, `valid token, request ${i + 1}`);
    // Without a token, or with a wrong one, the address is still out of budget.
    assert.equal((await guess()).status, 429);
    assert.equal((await fetch(`${api.url}/tags`)).status, 429);
    // Another path is another budget.
    assert.equal((await fetch(`${api.url}/lists`, { headers: { authorization: 'Bearer wc_v0_x' } })).status, 401);
  });

  it('v0: /tasks/{id} is one budget however the id is spelled (case, percent-encoding)', async () => {
    const api = await startApp(createApiV0App, cell());
    apps.push(api);
    const token = await freshTeamToken();
    const headers = { authorization: `Bearer ${token}` };
    const created = await fetch(`${api.url}/tasks`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'One budget' }) });
    assert.equal(created.status, 201);
    const id = ((await created.json()) as { _id: string })._id;
    const upper = id.toUpperCase();
    assert.notEqual(upper, id, 'the id has letters to change the case of');
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 15_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await fetch(`${api.url}/tasks/${upper}`, { headers })).status);
    assert.deepEqual([...new Set(statuses)], [200], 'the upper-case id names the task');
    const mixed = [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    const encoded = `%${upper.charCodeAt(0).toString(16).toUpperCase()}${upper.slice(1)}`;
    for (const spelling of [id, mixed, encoded, upper]) {
      assert.equal((await fetch(`${api.url}/tasks/${spelling}`, { headers })).status, 429, `/tasks/${spelling} shares the one budget`);
    }
    // A path of its own: the task's timer start.
    assert.notEqual((await fetch(`${api.url}/tasks/${upper}/startTracking`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })).status, 429);
  });

  it('v1: one budget per credential and class, however the scheme is spelled; refused tokens by address, never blocking a valid credential', async () => {
    const api = await startApp(createApiV1App, cell({ V1_RATE_LIMIT_READ_PER_MINUTE: '6' }));
    apps.push(api);
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 5_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    const schemes = ['Bearer', 'bearer', 'BEARER'];
    const read = (scheme: string, token: string, path = '/v1/workspace') => fetch(`${api.url}${path}`, { headers: { authorization: `${scheme} ${token}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await read(schemes[i % 3]!, tokens.personalAccessToken, i % 2 ? '/v1/workspace' : '/v1/auth/context')).status);
    assert.deepEqual([...new Set(statuses)], [200]);
    for (const scheme of schemes) assert.equal((await read(scheme, tokens.personalAccessToken)).status, 429, scheme);
    // Six refused guesses from this address, then 429 (the other credential's budget is untouched).
    for (let i = 0; i < 6; i++) {
      const refused = await read('Bearer', `svc_pat_v2_${randomUUID().replaceAll('-', '')}`);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('x-ratelimit-remaining'), String(5 - i));
    }
    assert.equal((await read('Bearer', `svc_pat_v2_${randomUUID().replaceAll('-', '')}`)).status, 429);
    // A valid credential from that address is limited by its own budget only, first looked up, then kept.
    for (let i = 0; i < 2; i++) {
      const valid = await read('Bearer', tokens.serviceAccountCredential);
      assert.equal(valid.status, 200, `valid credential, request ${i + 1}`);
      assert.notEqual(valid.headers.get('x-ratelimit-remaining'), '0', "its own budget, not the address's");
    }
    assert.equal((await read('Bearer', `svc_pat_v2_${randomUUID().replaceAll('-', '')}`)).status, 429, 'the address is still out of budget');
    assert.equal((await fetch(`${api.url}/v1/workspace`)).status, 429, 'without a token too');
  });

  it("v1: a refused identified credential spends its address's budget, never a valid credential's", async () => {
    const api = await startApp(createApiV1App, cell({ V1_RATE_LIMIT_READ_PER_MINUTE: '4' }));
    apps.push(api);
    const memberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId } })).id;
    const issue = async () =>
      (
        await inTransaction(database, (tx) =>
          issueCredential(tx, env.config, { workspaceId: tokens.workspaceId, kind: 'personal_access_token', name: `rl-${randomUUID()}`, scopes: ['workspace:read'], memberId }),
        )
      ).token;
    const [revoked, valid] = [await issue(), await issue()];
    // From a loopback address of its own: the other tests spent 127.0.0.1's read budget.
    const read = (token: string) => statusFrom('127.0.0.2', `${api.url}/v1/workspace`, 'GET', { authorization: `Bearer ${token}` });
    const untilBoundary = 60_000 - (Date.now() % 60_000);
    if (untilBoundary < 5_000) await new Promise((r) => setTimeout(r, untilBoundary + 50));
    // The instance verifies the credential and keeps it; it revokes itself (a write: another class).
    assert.equal(await statusFrom('127.0.0.2', `${api.url}/v1/auth/context`, 'DELETE', { authorization: `Bearer ${revoked}` }), 204);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await read(revoked));
    assert.deepEqual(statuses, [401, 401, 401, 401, 429], 'four refusals a minute from this address, then 429');
    for (let i = 0; i < 2; i++) assert.equal(await read(valid), 200, `a valid credential from that address, request ${i + 1}`);
    assert.equal(await read(revoked), 429);
  });

  it('answers 503 service_unavailable while Redis is unreachable, and recovers by itself', async () => {
    const proxy = await TcpProxy.start(env.config.redis.url);
    const api = await startApp(createApiV1App, cell({ REDIS_URL: proxy.rewrite(env.config.redis.url), DEPENDENCY_TIMEOUT_MS: '500' }));
    apps.push(api);
    const headers = { authorization: `Bearer ${tokens.serviceAccountCredential}` };
    assert.equal((await fetch(`${api.url}/v1/workspace`, { headers })).status, 200);
    await proxy.cut();
    const down = await fetch(`${api.url}/v1/workspace`, { headers });
    assert.equal(down.status, 503);
    assert.equal(down.headers.get('retry-after'), '1');
    assert.equal(((await down.json()) as { errors: { code: string }[] }).errors[0]?.code, 'service_unavailable');
    await proxy.restore();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await fetch(`${api.url}/v1/workspace`, { headers })).status;
    }
    assert.equal(status, 200);
    await proxy.close();
  });
});
