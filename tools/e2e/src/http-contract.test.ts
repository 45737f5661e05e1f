import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { V1_SCOPES } from '@workcell/credentials';
import { routeCoverage } from '@workcell/http';
import { v0Operations, v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertLegacyError, callV0, type LegacyReply } from './support/v0.js';
import { assertProblem, callApi, errorOf } from './support/v1.js';
import { createBareApiV1App } from './support/apps.js';
import { createApiV0App } from '@workcell/api-v0';
import { type RunningApp, startApp } from '@workcell/testing';

/**
 * HTTP-level contract rules that hold for every operation of both generations, driven by the registry
 * (issue 10): 401 carries an RFC 6750 challenge; authentication and scopes come before 501; a known path with
 * another method answers 405 with Allow.
 */

const env = useTestEnvironment();

const BAD_V1_TOKEN = `svc_pat_v2_${'A'.repeat(40)}`;
const BAD_V0_TOKEN = `wc_v0_${'A'.repeat(40)}`;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Sends `request` as raw bytes and reads the whole answer (the server closes): status, headers (lower-cased names), body. */
async function rawExchange(url: string, request: string): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/** A concrete path for a registry template (every parameter a fresh UUID; the calendar token too). */
const concrete = (template: string) => template.replace(/\{\w+\}/g, () => randomUUID());

describe('HTTP contract rules over every operation', () => {
  let cell: V1Cell;
  let v0: RunningApp;

  beforeAll(async () => {
    // The registry sweeps below send hundreds of refused requests from one address: lift the address budgets.
    cell = await startV1Cell(env, { settings: { V1_RATE_LIMIT_READ_PER_MINUTE: '100000', V1_RATE_LIMIT_WRITE_PER_MINUTE: '100000' } });
    v0 = await startApp(createApiV0App, cell.config);
  });
  afterAll(async () => {
    await v0?.close();
    await cell?.close();
  });

  it('v1: every authenticated operation answers 401 with WWW-Authenticate, invalid_token when a token was presented', async () => {
    const authenticated = v1Operations.filter((op) => op.authenticated);
    assert.ok(authenticated.length > 200);
    for (const op of authenticated) {
      const path = concrete(op.path);
      const bare = await fetch(`${cell.v1.url}${path}`, { method: op.method });
      assert.equal(bare.status, 401, `${op.operationId} without a token`);
      assert.equal(bare.headers.get('www-authenticate'), 'Bearer realm="workcell-v1"', op.operationId);
      for (const scheme of ['Bearer', 'bearer']) {
        const presented = await callApi(cell.v1, op.method, path, BAD_V1_TOKEN, undefined, { authorization: `${scheme} ${BAD_V1_TOKEN}` });
        assert.equal(presented.status, 401, `${op.operationId} with an invalid token`);
        assert.equal(presented.headers.get('www-authenticate'), 'Bearer realm="workcell-v1", error="invalid_token"', op.operationId);
      }
    }
    // Another scheme is no bearer token: a challenge without an error code (RFC 6750 3.1).
    const basic = await fetch(`${cell.v1.url}/v1/workspace`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    assert.equal(basic.status, 401);
    assert.equal(basic.headers.get('www-authenticate'), 'Bearer realm="workcell-v1"');
    // A revoked credential is a presented, invalid token.
    const token = await cell.mint(['workspace:read']);
    assert.equal((await callApi(cell.v1, 'DELETE', '/v1/auth/context', token)).status, 204);
    const revoked = await callApi(cell.v1, 'GET', '/v1/workspace', token);
    assertProblem(revoked, 401, 'credential_revoked');
    assert.equal(revoked.headers.get('www-authenticate'), 'Bearer realm="workcell-v1", error="invalid_token"');
  });

  it('v0: every authenticated operation answers 401 with WWW-Authenticate', async () => {
    for (const op of v0Operations.filter((o) => o.authenticated)) {
      const path = concrete(op.path);
      const bare = await callV0(v0, op.method, path, undefined);
      assertLegacyError(bare, 401, 'unauthorized');
      assert.equal(bare.headers.get('www-authenticate'), 'Bearer realm="workcell-v0"', op.operationId);
      const presented = await callV0(v0, op.method, path, BAD_V0_TOKEN);
      assertLegacyError(presented, 401, 'unauthorized');
      assert.equal(presented.headers.get('www-authenticate'), 'Bearer realm="workcell-v0", error="invalid_token"', op.operationId);
    }
  });

  it('v1: an operation without a handler answers 401, then 403 for missing scopes, and only then 501', async () => {
    // Every operation has a handler in the cell's api-v1; an api-v1 without controllers has none.
    assert.deepEqual(routeCoverage(cell.v1.app as NestFastifyApplication).notImplemented, []);
    const bareApi = await startApp(createBareApiV1App, cell.config);
    try {
      const pending = new Set(routeCoverage(bareApi.app as NestFastifyApplication).notImplemented);
      const ops = v1Operations.filter((op) => pending.has(op.operationId) && op.authenticated);
      assert.ok(ops.length > 200, `${ops.length} operations without a handler`);
      const withEvery = await cell.mint(V1_SCOPES);
      const withNone = await cell.mint(V1_SCOPES.filter((s) => s === 'workspace:read'));
      for (const op of ops) {
        const path = concrete(op.path);
        assertProblem(await callApi(bareApi, op.method, path, BAD_V1_TOKEN), 401, 'unauthenticated');
        const bare = await fetch(`${bareApi.url}${path}`, { method: op.method });
        assert.equal(bare.status, 401, op.operationId);
        if (op.scopes.some((s) => s !== 'workspace:read') || op.anyOfScopes.length > 0) {
          assertProblem(await callApi(bareApi, op.method, path, withNone), 403, 'insufficient_scope');
        }
        assertProblem(await callApi(bareApi, op.method, path, withEvery), 501, 'not_implemented');
      }
    } finally {
      await bareApi.close();
    }
  });

  it('v1 and v0: a known path with a method it does not serve answers 405 with Allow, before authentication', async () => {
    for (const [generation, operations] of [
      ['v1', v1Operations],
      ['v0', v0Operations],
    ] as const) {
      const byPath = new Map<string, Set<string>>();
      for (const op of operations) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
      const patterns = [...byPath].map(([template, methods]) => ({ pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`), methods }));
      for (const template of byPath.keys()) {
        const path = concrete(template);
        // What the path serves: its own template's methods and those of any other template it also matches.
        const served = new Set(patterns.filter((p) => p.pattern.test(path)).flatMap((p) => [...p.methods]));
        const other = METHODS.find((m) => !served.has(m));
        if (!other) continue;
        const expected = [...served, ...(served.has('GET') ? ['HEAD'] : [])].sort().join(', ');
        for (const token of [undefined, generation === 'v1' ? cell.demo.personalAccessToken : cell.demo.v0TeamToken]) {
          if (generation === 'v1') {
            const reply = await fetch(`${cell.v1.url}${path}`, { method: other, headers: token ? { authorization: `Bearer ${token}` } : {} });
            const body = { status: reply.status, body: await reply.json(), headers: reply.headers };
            assertProblem(body, 405, 'method_not_allowed');
            assert.equal(reply.headers.get('allow'), expected, `${other} ${template}`);
            assert.equal((body.body as { meta: { requestId: string } }).meta.requestId, reply.headers.get('x-request-id'));
          } else {
            const reply: LegacyReply = await callV0(v0, other, path, token);
            assertLegacyError(reply, 405, 'method_not_allowed');
            assert.equal(reply.headers.get('allow'), expected, `${other} ${template}`);
          }
        }
      }
    }
    // An unknown path stays 404.
    assertProblem(await callApi(cell.v1, 'GET', '/v1/nowhere', cell.demo.personalAccessToken), 404, 'route_not_found');
    assertLegacyError(await callV0(v0, 'GET', '/nowhere', cell.demo.v0TeamToken), 404, 'not_found');
  });

  it('v1 and v0: an HTTP/1.1 request without Host answers 400 in the error document with X-Request-Id; HTTP/1.0 needs none', async () => {
    for (const [generation, url, path, token] of [
      ['v1', cell.v1.url, '/v1/tags', cell.demo.personalAccessToken],
      ['v0', v0.url, '/tasks', cell.demo.v0TeamToken],
    ] as const) {
      for (const request of [
        `GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
        `POST ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      ]) {
        const reply = await rawExchange(url, request);
        const what = `${generation} ${request.split('\r\n')[0]}: ${reply.status} ${reply.body}`;
        assert.equal(reply.status, 400, what);
        const requestId = reply.headers.get('x-request-id');
        assert.match(requestId ?? '', /^[0-9a-f-]{36}$/, what);
        assert.match(reply.headers.get('content-type') ?? '', /^application\/json/, what);
        if (generation === 'v1') {
          assertProblem({ status: reply.status, body: JSON.parse(reply.body), headers: new Headers() }, 400, 'invalid_request');
          assert.equal((JSON.parse(reply.body) as { meta: { requestId: string } }).meta.requestId, requestId, what);
        } else {
          assert.deepEqual(JSON.parse(reply.body), { error: { code: 'invalid_request', message: 'the request has no Host header, which HTTP/1.1 requires' } }, what);
        }
      }
      // HTTP/1.0 has no Host requirement: the request is served (here, with its token, the collection).
      const served = await rawExchange(url, `GET ${path} HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      assert.equal(served.status, 200, `${generation} HTTP/1.0 without Host: ${served.status} ${served.body}`);
    }
  });

  it('v1: Idempotency-Key is scoped by credential and operation; a malformed key is invalid_idempotency_key', async () => {
    const token = cell.demo.personalAccessToken;
    const key = `key-${randomUUID()}`;
    const tag = await callApi(cell.v1, 'POST', '/v1/tags', token, { name: `Scoped ${key}` }, { 'idempotency-key': key });
    assert.equal(tag.status, 201, JSON.stringify(tag.body));
    const list = await callApi(cell.v1, 'POST', '/v1/lists', token, { name: `Scoped ${key}`, kind: 'tasks' }, { 'idempotency-key': key });
    assert.equal(list.status, 201, JSON.stringify(list.body));
    assert.equal(list.headers.get('idempotency-replayed'), 'false');
    // Still a replay on its own operation.
    const replay = await callApi(cell.v1, 'POST', '/v1/tags', token, { name: `Scoped ${key}` }, { 'idempotency-key': key });
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    for (const bad of ['short', 'x'.repeat(256), '-leading-dash', 'with space key']) {
      const reply = await callApi(cell.v1, 'POST', '/v1/tags', token, { name: `Never ${bad.length}` }, { 'idempotency-key': bad });
      assertProblem(reply, 400, 'invalid_idempotency_key');
      assert.equal(errorOf(reply).source?.parameter, 'Idempotency-Key');
    }
    assert.equal(await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId, name: { startsWith: 'Never ' } } }), 0);
    // Authentication still comes first.
    assertProblem(await callApi(cell.v1, 'POST', '/v1/tags', BAD_V1_TOKEN, { name: 'x' }, { 'idempotency-key': 'short' }), 401, 'unauthenticated');
  });

  it('v1: GET /v1/audit-events without limit answers the default page', async () => {
    const reply = await callApi<{ data: unknown[]; meta: { limit: number } }>(cell.v1, 'GET', '/v1/audit-events', cell.demo.personalAccessToken);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.meta.limit, 50);
  });

  it('v0: GET /teams is paged like every collection, so page-until-empty clients stop', async () => {
    const token = cell.demo.v0TeamToken;
    const first = await callV0<{ _id: string }[]>(v0, 'GET', '/teams?page=1&limit=1', token);
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.map((t) => t._id),
      [cell.workspaceId],
    );
    const second = await callV0<unknown[]>(v0, 'GET', '/teams?page=2', token);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, []);
    assert.equal((await callV0(v0, 'GET', '/teams?page=0', token)).status, 400);
  });
});
