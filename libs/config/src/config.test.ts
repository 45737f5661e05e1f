import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults work on this machine', () => {
    const c = loadConfig({});
    assert.equal(c.database.url, 'postgresql://postgres@127.0.0.1:5432/workcell');
    assert.equal(c.redis.url, 'redis://127.0.0.1:6379');
    assert.deepEqual(c.ports, { apiV0: 3000, apiV1: 3001, auth: 3002, worker: 3003 });
    assert.equal(c.region, 'eu1');
    assert.equal(c.cell, 'c1');
    // Attempts in flight per worker and one subscription's share (docs/performance.md, the webhook rows).
    assert.equal(c.webhooks.deliveryConcurrency, 64);
    assert.equal(c.webhooks.subscriptionConcurrency, 16);
    assert.ok(Object.isFrozen(c));
  });

  it('the internal addresses follow the ports unless set (issue 25: moving a port left the API cells never ready)', () => {
    assert.deepEqual(loadConfig({}).internalUrls, { auth: 'http://127.0.0.1:3002', worker: 'http://127.0.0.1:3003' });
    assert.deepEqual(loadConfig({ AUTH_PORT: '4102', WORKER_PORT: '4103' }).internalUrls, { auth: 'http://127.0.0.1:4102', worker: 'http://127.0.0.1:4103' });
    assert.deepEqual(loadConfig({ AUTH_PORT: '4102', AUTH_INTERNAL_URL: 'http://auth:3002/' }).internalUrls.auth, 'http://auth:3002');
  });

  it('reads and coerces every variable', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/x',
      REDIS_URL: 'redis://cache:6380',
      API_V1_PORT: '8081',
      REGION: 'us2',
      CELL: 'c7',
      V0_BASE_URL: 'https://api.example.com/',
      V0_BASE_URL_ALT: 'https://legacy.example.com',
      CREDENTIAL_SECRET: 'x'.repeat(40),
    });
    assert.equal(c.ports.apiV1, 8081);
    assert.equal(c.baseUrls.v0, 'https://api.example.com');
    assert.equal(c.baseUrls.v0Alt, 'https://legacy.example.com');
    assert.equal(c.region, 'us2');
    assert.equal(c.credentialSecret, 'x'.repeat(40));
  });

  for (const [variable, value, reason] of [
    ['DATABASE_URL', 'mysql://localhost/db', /postgres/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL/],
    ['REDIS_URL', 'http://localhost', /redis/],
    ['API_V0_PORT', '70000', /API_V0_PORT/],
    ['API_V1_PORT', 'abc', /API_V1_PORT/],
    ['REGION', 'EU 1', /lowercase/],
    ['CREDENTIAL_SECRET', 'short', /at least 32/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['REDIS_CLUSTER_NODES', 'redis://a:7000', /host:port/],
    ['REDIS_CLUSTER_NODES', 'a:7000,,b:7001', /host:port/],
    ['DATABASE_DIRECT_URL', 'mysql://localhost/db', /postgres/],
    ['HTTP_REQUEST_TIMEOUT_MS', '0', /HTTP_REQUEST_TIMEOUT_MS/],
    ['HTTP_MAX_CONNECTIONS_PER_CLIENT', '-1', /HTTP_MAX_CONNECTIONS_PER_CLIENT/],
  ] as const) {
    it(`rejects ${variable}=${value} naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (e: unknown) => e instanceof ConfigError && e.variable === variable && reason.test(e.message),
      );
    });
  }

  it('scale-out (docs/scale-out.md): one Redis unless REDIS_CLUSTER_NODES lists seed nodes', () => {
    assert.deepEqual(loadConfig({}).redis.clusterNodes, []);
    const nodes = loadConfig({ REDIS_CLUSTER_NODES: 'cache-1:7000,10.0.0.2:7001,[::1]:7002' }).redis.clusterNodes;
    assert.deepEqual(
      nodes.map((n) => ({ ...n })),
      [
        { host: 'cache-1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
    );
  });

  it('scale-out: migrations and LISTEN use DATABASE_DIRECT_URL (else DATABASE_URL); DATABASE_LISTEN_URL overrides LISTEN alone', () => {
    const pooled = 'postgres://u@pgbouncer:6432/x';
    const direct = 'postgres://u@db:5432/x';
    const urls = (source: Record<string, string>) => {
      const { url, directUrl, listenUrl } = loadConfig(source).database;
      return { url, directUrl, listenUrl };
    };
    assert.deepEqual(urls({ DATABASE_URL: direct }), { url: direct, directUrl: direct, listenUrl: direct });
    assert.deepEqual(urls({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct }), { url: pooled, directUrl: direct, listenUrl: direct });
    const listen = 'postgres://u@proxy:5433/x';
    assert.deepEqual(urls({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, DATABASE_LISTEN_URL: listen }), { url: pooled, directUrl: direct, listenUrl: listen });
  });

  it('bounds what a client may hold open by default, and refuses a header bound above the request bound', () => {
    assert.deepEqual(loadConfig({}).http, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, idleTimeoutMs: 72_000, maxConnectionsPerClient: 256 });
    assert.equal(loadConfig({ HTTP_MAX_CONNECTIONS_PER_CLIENT: '0' }).http.maxConnectionsPerClient, 0);
    assert.throws(
      () => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'HTTP_HEADERS_TIMEOUT_MS',
    );
  });

  // ─── mail (invitations) ───
  it('mail: writes .eml files under .workcell/mail-outbox by default; smtp needs its server', () => {
    const c = loadConfig({});
    assert.deepEqual(
      { ...c.mail },
      {
        driver: 'outbox',
        outboxDir: '.workcell/mail-outbox',
        smtpUrl: null,
        from: 'Workcell <no-reply@workcell.invalid>',
        invitationAcceptUrl: 'http://127.0.0.1:3002/invitations/accept',
        signInUrl: 'http://127.0.0.1:3002/sign-in',
        signInLimitPerAddress: 5,
        signInLimitPerClient: 30,
      },
    );
    assert.throws(() => loadConfig({ SIGN_IN_URL: 'https://app.example.com/sign-in?x=1' }), /SIGN_IN_URL must not have a query/);
    assert.throws(() => loadConfig({ MAIL_DRIVER: 'smtp' }), /MAIL_SMTP_URL is required when MAIL_DRIVER=smtp/);
    assert.throws(() => loadConfig({ MAIL_DRIVER: 'smtp', MAIL_SMTP_URL: 'http://mail' }), /MAIL_SMTP_URL must be an smtp/);
    assert.equal(loadConfig({ MAIL_DRIVER: 'smtp', MAIL_SMTP_URL: 'smtp://mail:25' }).mail.smtpUrl, 'smtp://mail:25');
    assert.throws(() => loadConfig({ INVITATION_ACCEPT_URL: 'https://app.example.com/accept?x=1' }), /INVITATION_ACCEPT_URL must not have a query/);
  });
  // ─── end mail ───

  it('requires CREDENTIAL_SECRET in production', () => {
    assert.throws(() => loadConfig({ WORKCELL_ENV: 'production' }), /CREDENTIAL_SECRET is required/);
    assert.equal(loadConfig({ WORKCELL_ENV: 'production', CREDENTIAL_SECRET: 's'.repeat(32) }).env, 'production');
  });

  it('refuses an http:// public URL in production, except to a loopback host', () => {
    const production = { WORKCELL_ENV: 'production', CREDENTIAL_SECRET: 's'.repeat(32) };
    const paths = { V0_BASE_URL: '', V0_BASE_URL_ALT: '', V1_BASE_URL: '', INVITATION_ACCEPT_URL: '/invitations/accept', SIGN_IN_URL: '/sign-in' };
    for (const [name, path] of Object.entries(paths)) {
      assert.throws(() => loadConfig({ ...production, [name]: `http://api.example.com${path}` }), new RegExp(`${name} must be an https:// URL when WORKCELL_ENV=production`), name);
      assert.doesNotThrow(() => loadConfig({ ...production, [name]: `https://api.example.com${path}` }), name);
      for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']) assert.doesNotThrow(() => loadConfig({ ...production, [name]: `http://${host}${path}` }), `${name} ${host}`);
      // Outside production a plain-text URL is the developer's choice.
      assert.doesNotThrow(() => loadConfig({ [name]: `http://api.example.com${path}` }), name);
    }
  });

  it('loadConfigOrExit prints one line naming the variable and exits non-zero', () => {
    const entry = fileURLToPath(new URL('./index.js', import.meta.url));
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(entry)}).then(m => m.loadConfigOrExit())`], {
      env: { DATABASE_URL: 'nope://x' },
      encoding: 'utf8',
    });
    assert.notEqual(r.status, 0);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^Invalid configuration: DATABASE_URL /);
  });
});
