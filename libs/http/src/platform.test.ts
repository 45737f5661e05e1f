import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningApp, startApp, TcpProxy, testConfig, useTestEnvironment } from '@workcell/testing';
import { captureLogger, createTestApp, releaseSlowRequest } from './fixtures.js';

const env = useTestEnvironment();

async function waitFor(predicate: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await predicate()) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`condition not reached within ${timeoutMs} ms`);
}

const readyStatus = async (url: string) => (await fetch(`${url}/readyz`)).status;

describe('request plumbing', () => {
  let running: RunningApp;
  let capture: ReturnType<typeof captureLogger>;
  before(async () => {
    capture = captureLogger(env.config);
    running = await startApp((c) => createTestApp(c, capture.logger), env.config);
  });
  after(() => running.close());

  it('answers /healthz and /readyz when PostgreSQL and Redis are up', async () => {
    const health = await fetch(`${running.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${running.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', checks: { database: { status: 'up' }, redis: { status: 'up' } } });
    assert.equal(ready.headers.get('cache-control'), 'no-store');
  });

  it('echoes a well-formed X-Request-Id and mints one otherwise', async () => {
    const kept = await fetch(`${running.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(kept.headers.get('x-request-id'), 'abc-123');
    const minted = await fetch(`${running.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(minted.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('logs exactly one JSON line per request with method, route, status, duration and request id, and no secrets', async () => {
    const secret = 'svc_pat_v2_thisIsASecretThatMustNeverBeLogged';
    const before = capture.lines().length;
    const res = await fetch(`${running.url}/__test/echo?token=${secret}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-request-id': 'log-check-1' },
      body: JSON.stringify({ hello: 'world' }),
    });
    assert.equal(res.status, 201);
    await sleep(50);
    const lines = capture.lines().slice(before).filter((l) => l['requestId'] === 'log-check-1');
    assert.equal(lines.length, 1, JSON.stringify(lines));
    const line = lines[0]!;
    assert.equal(line['method'], 'POST');
    assert.equal(line['route'], '/__test/echo');
    assert.equal(line['status'], 201);
    assert.equal(typeof line['durationMs'], 'number');
    assert.equal(line['service'], 'test');
    assert.ok(!capture.raw().includes(secret), 'a secret reached the log');
    assert.ok(!capture.raw().toLowerCase().includes('authorization'), 'an Authorization header reached the log');
  });

  it('redacts secret-named fields in ad hoc log lines', () => {
    capture.logger.info({ authorization: 'Bearer x-secret-1', nested: { token: 'x-secret-2' } }, 'ad hoc');
    assert.ok(!capture.raw().includes('x-secret-1'));
    assert.ok(!capture.raw().includes('x-secret-2'));
  });
});

describe('readiness follows its dependencies', () => {
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let running: RunningApp;
  before(async () => {
    pgProxy = await TcpProxy.start(env.databaseUrl);
    redisProxy = await TcpProxy.start(env.config.redis.url);
    const config = testConfig({
      DATABASE_URL: pgProxy.rewrite(env.databaseUrl),
      REDIS_URL: redisProxy.rewrite(env.config.redis.url),
      REDIS_PREFIX: env.redisPrefix,
      DEPENDENCY_TIMEOUT_MS: '1000',
    });
    running = await startApp((c) => createTestApp(c, captureLogger(c).logger), config);
    await waitFor(async () => (await readyStatus(running.url)) === 200, 5_000);
  });
  after(async () => {
    await running.close();
    await pgProxy.close();
    await redisProxy.close();
  });

  it('turns 503 within seconds when PostgreSQL goes away, keeps /healthz 200, and recovers without a restart', async () => {
    await pgProxy.cut();
    const took = await waitFor(async () => (await readyStatus(running.url)) === 503, 5_000);
    assert.ok(took < 5_000);
    const report = (await (await fetch(`${running.url}/readyz`)).json()) as { checks: Record<string, { status: string }> };
    assert.equal(report.checks['database']?.status, 'down');
    assert.equal(report.checks['redis']?.status, 'up');
    assert.equal((await fetch(`${running.url}/healthz`)).status, 200);
    await pgProxy.restore();
    await waitFor(async () => (await readyStatus(running.url)) === 200, 10_000);
  });

  it('turns 503 when Redis goes away and recovers without a restart', async () => {
    await redisProxy.cut();
    await waitFor(async () => (await readyStatus(running.url)) === 503, 5_000);
    const report = (await (await fetch(`${running.url}/readyz`)).json()) as { checks: Record<string, { status: string }> };
    assert.equal(report.checks['redis']?.status, 'down');
    assert.equal((await fetch(`${running.url}/healthz`)).status, 200);
    await redisProxy.restore();
    await waitFor(async () => (await readyStatus(running.url)) === 200, 10_000);
  });
});

describe('graceful shutdown', () => {
  it('lets a request in flight finish, refuses new ones, then closes', async () => {
    const running = await startApp((c) => createTestApp(c, captureLogger(c).logger), env.config);
    const inFlight = fetch(`${running.url}/__test/slow`);
    await sleep(200);
    const closing = running.close();
    await sleep(200);
    await assert.rejects(fetch(`${running.url}/healthz`), 'a new connection was accepted while closing');
    releaseSlowRequest();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { finished: true });
    await closing;
  });
});
