import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import type { AppConfig } from '@workcell/config';
import { routeCoverage } from '@workcell/http';
import { openApiDocument, REGISTRY_DIGEST, v1Operations } from '@workcell/registry';
import { type RunningApp, startApp, testConfig, useTestEnvironment } from '@workcell/testing';
import { createBareApiV1App, useApiApps } from './support/apps.js';

const env = useTestEnvironment();

function cell(auth: RunningApp, worker: RunningApp): AppConfig {
  return testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, AUTH_INTERNAL_URL: auth.url, WORKER_INTERNAL_URL: worker.url });
}

async function readiness(url: string): Promise<{ status: number; body: { checks: Record<string, { status: string; reason?: string }> } }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as { checks: Record<string, { status: string; reason?: string }> } };
}

describe('registry agreement between cells (contract 5.2 rule 7)', () => {
  const running: RunningApp[] = [];
  afterAll(async () => {
    for (const r of running.reverse()) await r.close();
  });

  it('is ready when auth and worker serve the same registry', async () => {
    const auth = await startApp(createAuthApp, env.config);
    const worker = await startApp(createWorkerApp, env.config);
    const api = await startApp(createApiV1App, cell(auth, worker));
    running.push(auth, worker, api);
    const { status, body } = await readiness(api.url);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.checks['registry'], { status: 'up' });
  });

  it('stays 503 and says why while an application cell serves another registry', async () => {
    const other = 'f'.repeat(64);
    const auth = await startApp((c) => createAuthApp(c, undefined, { registryDigest: other }), env.config);
    const worker = await startApp(createWorkerApp, env.config);
    const api = await startApp(createApiV0App, cell(auth, worker));
    running.push(auth, worker, api);
    for (let i = 0; i < 3; i++) {
      const { status, body } = await readiness(api.url);
      assert.equal(status, 503);
      assert.equal(body.checks['registry']?.status, 'down');
      assert.match(body.checks['registry']?.reason ?? '', new RegExp(`auth serves registry ffffffffffff…, this cell ${REGISTRY_DIGEST.slice(0, 12)}…`));
      assert.doesNotMatch(body.checks['registry']?.reason ?? '', /worker/);
      await sleep(100);
    }
  });

  it('is not ready while an application cell is unreachable', async () => {
    const auth = await startApp(createAuthApp, env.config);
    const worker = await startApp(createWorkerApp, env.config);
    const config = cell(auth, worker);
    await worker.close();
    const api = await startApp(createApiV1App, config);
    running.push(auth, api);
    const { status, body } = await readiness(api.url);
    assert.equal(status, 503);
    assert.match(body.checks['registry']?.reason ?? '', /worker is unreachable/);
  });

  it('refuses internal calls without the internal token', async () => {
    const auth = await startApp(createAuthApp, env.config);
    running.push(auth);
    const res = await fetch(`${auth.url}/trpc/system.info`);
    assert.equal(res.status, 401);
  });
});

describe('API routes come from the registry', () => {
  const apps = useApiApps(env);

  it('mounts every v1 and v0 operation, implemented or 501', () => {
    const c1 = routeCoverage(apps.v1.app);
    const c0 = routeCoverage(apps.v0.app);
    assert.equal(c1.implemented.length + c1.notImplemented.length, 237);
    assert.equal(c0.implemented.length + c0.notImplemented.length, 87);
    assert.ok(c1.implemented.includes('getApiVersion'));
    assert.ok(c0.implemented.includes('legacyGetRoot'));
  });

  it('checks the credential of an unimplemented v1 operation first (401), in the v1 error document', async () => {
    // Issue 10: authentication comes before 501; http-contract.test.ts follows an authorized request to its 501.
    // Every operation has a handler in api-v1; an api-v1 without controllers has none.
    const bareApi = await startApp(createBareApiV1App, env.config);
    try {
      const unserved = new Set(routeCoverage(bareApi.app).notImplemented);
      const operation = v1Operations.find((op) => op.authenticated && unserved.has(op.operationId))!;
      const path = operation.path.replace(/\{\w+\}/g, '01a1fc94-97ea-7433-a1ba-8714884845a1');
      const res = await fetch(`${bareApi.url}${path}`, { method: operation.method });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="workcell-v1"');
      const body = (await res.json()) as { errors: { code: string; status: string; title: string; detail: string }[]; meta: { requestId: string } };
      assert.equal(body.errors[0]?.code, 'unauthenticated');
      assert.equal(body.errors[0]?.status, '401');
      assert.equal(body.meta.requestId, res.headers.get('x-request-id'));
    } finally {
      await bareApi.close();
    }
  });

  it('serves every one of the 87 v0 operations (issue 5: none answers 501)', () => {
    assert.deepEqual(routeCoverage(apps.v0.app).notImplemented, []);
  });

  it("serves every one of the 237 v1 operations (issue 14's automations were the last: none answers 501)", () => {
    assert.deepEqual(routeCoverage(apps.v1.app).notImplemented, []);
  });

  it('answers unknown routes 404 in each generation’s shape', async () => {
    const r1 = await fetch(`${apps.v1.url}/v1/no-such-thing`);
    assert.equal(r1.status, 404);
    const b1 = (await r1.json()) as { errors: { code: string }[]; meta: { requestId: string } };
    assert.equal(b1.errors[0]?.code, 'route_not_found');
    assert.equal(b1.meta.requestId, r1.headers.get('x-request-id'));
    const r0 = await fetch(`${apps.v0.url}/no-such-thing`);
    assert.equal(r0.status, 404);
    assert.equal(((await r0.json()) as { error: { code: string } }).error.code, 'not_found');
  });

  it('answers an oversized body 413 and malformed JSON 400 in the v1 error document', async () => {
    const big = await fetch(`${apps.v1.url}/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 'a'.repeat(2 * 1024 * 1024) }) });
    assert.equal(big.status, 413);
    assert.equal(((await big.json()) as { errors: { code: string }[] }).errors[0]?.code, 'payload_too_large');
    const bad = await fetch(`${apps.v1.url}/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { errors: { code: string }[] }).errors[0]?.code, 'invalid_json');
  });

  it('serves the v1 OpenAPI document publicly, and v0 its own', async () => {
    const r1 = await fetch(`${apps.v1.url}/v1/openapi.json`);
    assert.equal(r1.status, 200);
    assert.equal(await r1.text(), openApiDocument('v1').text);
    const again = await fetch(`${apps.v1.url}/v1/openapi.json`, { headers: { 'if-none-match': r1.headers.get('etag') ?? '' } });
    assert.equal(again.status, 304);
    const r0 = await fetch(`${apps.v0.url}/openapi.json`);
    assert.equal(((await r0.json()) as { info: { version: string } }).info.version, '0.4.5');
  });

  it('answers getApiVersion and the v0 discovery redirect', async () => {
    const version = await fetch(`${apps.v1.url}/v1`);
    const signIn = env.config.mail.signInUrl;
    assert.deepEqual(await version.json(), {
      data: {
        apiVersion: 'v1',
        openapiUrl: '/v1/openapi.json',
        legacy: { version: '0.4.5', status: 'frozen-legacy' },
        // The auth service's pages and device endpoints are the sign-in page's siblings (SIGN_IN_URL).
        authentication: {
          signInUrl: signIn,
          accountUrl: signIn.replace(/sign-in$/, 'account'),
          deviceVerificationUrl: signIn.replace(/sign-in$/, 'device'),
          deviceAuthorizationUrl: signIn.replace(/sign-in$/, 'device/code'),
          tokenUrl: signIn.replace(/sign-in$/, 'device/token'),
        },
      },
    });
    const root = await fetch(`${apps.v0.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), `${env.config.baseUrls.v1}/v1`);
  });
});
