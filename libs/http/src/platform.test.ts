import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningApp, startApp, TcpProxy, testConfig, useTestEnvironment } from '@workcell/testing';
import { captureLogger, createTestApp, releaseSlowRequest } from './testing.js';

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
  beforeAll(async () => {
    capture = captureLogger(env.config);
    running = await startApp((c) => createTestApp(c, capture.logger), env.config);
  });
  afterAll(() => running.close());

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
    const lines = capture
      .lines()
      .slice(before)
      .filter((l) => l['requestId'] === 'log-check-1');
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
  beforeAll(async () => {
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
  afterAll(async () => {
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

  for (const dependency of ['PostgreSQL', 'Redis'] as const) {
    it(`answers 503 within DEPENDENCY_TIMEOUT_MS when ${dependency} is black-holed (a partition), and recovers without a restart`, async () => {
      const proxy = dependency === 'PostgreSQL' ? pgProxy : redisProxy;
      await proxy.blackhole();
      try {
        for (let i = 0; i < 3; i++) {
          const started = Date.now();
          const res = await fetch(`${running.url}/readyz`, { signal: AbortSignal.timeout(10_000) });
          const took = Date.now() - started;
          assert.equal(res.status, 503);
          assert.ok(took < 1_000 + 1_500, `readiness took ${took} ms`);
          const report = (await res.json()) as { checks: Record<string, { status: string }> };
          assert.equal(report.checks[dependency === 'PostgreSQL' ? 'database' : 'redis']?.status, 'down');
        }
      } finally {
        await proxy.restore();
      }
      await waitFor(async () => (await readyStatus(running.url)) === 200, 10_000);
    });
  }

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

/** A raw client connection: when it was opened, what the server sent, and when the server closed it. */
function rawConnection(url: string): { socket: net.Socket; opened: Promise<void>; closedAfter: Promise<number>; received: () => string } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const started = Date.now();
  let data = '';
  socket.on('data', (chunk: Buffer) => void (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  return {
    socket,
    opened: new Promise((resolve) => socket.once('connect', () => resolve())),
    closedAfter: new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started))),
    received: () => data,
  };
}

/** Writes `text` one byte at a time, `everyMs` apart, until it is written or the socket is closed. */
async function trickle(socket: net.Socket, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || !socket.writable) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

/** A 408 written before any request existed still carries the error document and a request id. */
function assertTimeoutDocument(raw: string): void {
  assert.match(raw, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const requestId = /\r\nX-Request-Id: ([^\r]+)/i.exec(head)?.[1];
  assert.ok(requestId, head);
  const document = JSON.parse(body) as { errors: { code: string; status: string }[]; meta: { requestId: string } };
  assert.equal(document.errors[0]?.code, 'request_timeout');
  assert.equal(document.errors[0]?.status, '408');
  assert.equal(document.meta.requestId, requestId);
}

/** Resolves with the time until `closed` settles, or with Infinity after `capMs` (the connection was never cut). */
const within = (closed: Promise<number>, capMs: number) => Promise.race([closed, sleep(capMs).then(() => Infinity)]);

describe('server limits: slow clients and connections per client (slow loris)', () => {
  const HEADERS_MS = 600;
  const REQUEST_MS = 1_200;
  const IDLE_MS = 1_500;
  /** Node checks the header and request bounds every quarter of the header bound; the rest is the loaded machine. */
  const MARGIN_MS = 1_200;
  let running: RunningApp;
  beforeAll(async () => {
    const config = testConfig({
      DATABASE_URL: env.databaseUrl,
      REDIS_PREFIX: env.redisPrefix,
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
    });
    running = await startApp((c) => createTestApp(c, captureLogger(c).logger), config);
  });
  afterAll(() => running.close());

  it('a client sending its headers byte by byte is cut off within HTTP_HEADERS_TIMEOUT_MS', async () => {
    const conn = rawConnection(running.url);
    await conn.opened;
    void trickle(conn.socket, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' + 'x'.repeat(200), 50);
    const took = await within(conn.closedAfter, 10_000);
    conn.socket.destroy();
    assert.ok(took >= HEADERS_MS - 100 && took <= HEADERS_MS + MARGIN_MS, `cut off after ${took} ms`);
    assertTimeoutDocument(conn.received());
  });

  it('a client sending its body byte by byte is cut off within HTTP_REQUEST_TIMEOUT_MS, unauthenticated or not', async () => {
    const conn = rawConnection(running.url);
    await conn.opened;
    conn.socket.write('POST /__test/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    void trickle(conn.socket, '{"a":"' + 'x'.repeat(990) + '"}', 50);
    const took = await within(conn.closedAfter, 10_000);
    conn.socket.destroy();
    assert.ok(took >= REQUEST_MS - 100 && took <= REQUEST_MS + MARGIN_MS, `cut off after ${took} ms`);
    assertTimeoutDocument(conn.received());
  });

  it('a connection that sends nothing, and a keep-alive connection after its response, are closed', async () => {
    const silent = rawConnection(running.url);
    await silent.opened;
    const silentTook = await within(silent.closedAfter, 10_000);
    assert.ok(silentTook <= IDLE_MS + MARGIN_MS, `a silent connection stayed ${silentTook} ms`);
    const kept = rawConnection(running.url);
    await kept.opened;
    kept.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const keptTook = await within(kept.closedAfter, 10_000);
    assert.match(kept.received(), /^HTTP\/1\.1 200 /);
    assert.ok(keptTook >= IDLE_MS - 100 && keptTook <= IDLE_MS + MARGIN_MS, `an idle keep-alive connection stayed ${keptTook} ms`);
  });

  it('requests at a normal pace are unaffected', async () => {
    const res = await fetch(`${running.url}/__test/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hello: 'world' }) });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { hello: 'world' });
  });
});

describe('server limits: connections per client address', () => {
  const LIMIT = 3;
  let running: RunningApp;
  beforeAll(async () => {
    const config = testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, HTTP_MAX_CONNECTIONS_PER_CLIENT: String(LIMIT) });
    running = await startApp((c) => createTestApp(c, captureLogger(c).logger), config);
  });
  afterAll(() => running.close());

  it('refuses connections over HTTP_MAX_CONNECTIONS_PER_CLIENT at once, and accepts again when one closes', async () => {
    const held = Array.from({ length: LIMIT }, () => rawConnection(running.url));
    await Promise.all(held.map((c) => c.opened));
    await sleep(100);
    const over = rawConnection(running.url);
    const overTook = await within(over.closedAfter, 3_000);
    assert.ok(overTook < 1_000, `the connection over the limit stayed open ${overTook} ms`);
    assert.equal(over.received(), '');
    for (const c of held) assert.ok(!c.socket.destroyed, 'a connection within the limit was closed');
    held[0]!.socket.destroy();
    await held[0]!.closedAfter;
    await sleep(100);
    const next = rawConnection(running.url);
    await next.opened;
    next.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await within(next.closedAfter, 3_000);
    assert.match(next.received(), /^HTTP\/1\.1 200 /);
    for (const c of held) c.socket.destroy();
  });
});
