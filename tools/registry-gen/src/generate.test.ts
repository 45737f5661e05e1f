import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson, registryDigest, v0Operations, v1Operations } from '@workcell/registry';
import { createHash } from 'node:crypto';
import { driftedFiles, REPO_ROOT, writeFiles } from './generate.js';
import { OUTPUT_FILES, renderAll } from './render.js';

const GENERATE = fileURLToPath(new URL('./generate.js', import.meta.url));
const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-gen-'));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const readJson = (relative: string) => JSON.parse(readFileSync(resolve(REPO_ROOT, relative), 'utf8')) as Record<string, unknown>;

describe('registry-gen', () => {
  it('renders every artifact deterministically (two runs are identical)', () => {
    const a = renderAll();
    const b = renderAll();
    assert.deepEqual(
      a.map((f) => f.path),
      Object.values(OUTPUT_FILES),
    );
    assert.deepEqual(a, b);
    for (const f of a) assert.ok(f.content.endsWith('\n') && !f.content.endsWith('\n\n'), f.path);
  });

  it('CLI runs into two temp dirs produce byte-identical files', () => {
    const [x, y] = [tempDir(), tempDir()];
    for (const dir of [x, y]) {
      const r = spawnSync(process.execPath, [GENERATE, '--out', dir], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    }
    for (const path of Object.values(OUTPUT_FILES)) {
      assert.ok(readFileSync(join(x, path)).equals(readFileSync(join(y, path))), path);
    }
  });

  it('no drift: regenerating into a temp dir yields the committed files byte for byte', () => {
    const dir = tempDir();
    writeFiles(renderAll(), dir);
    for (const path of Object.values(OUTPUT_FILES)) {
      const committed = readFileSync(resolve(REPO_ROOT, path));
      assert.ok(readFileSync(join(dir, path)).equals(committed), `${path} drifted; run: npx nx run @workcell/registry-gen:generate`);
    }
    assert.deepEqual(driftedFiles(renderAll(), REPO_ROOT), []);
  });

  it('--check fails on drift and passes when up to date', () => {
    const dir = tempDir();
    const stale = spawnSync(process.execPath, [GENERATE, '--check', '--out', dir], { encoding: 'utf8' });
    assert.equal(stale.status, 1);
    assert.match(stale.stderr, /out of date/);
    writeFiles(renderAll(), dir);
    const fresh = spawnSync(process.execPath, [GENERATE, '--check', '--out', dir], { encoding: 'utf8' });
    assert.equal(fresh.status, 0, fresh.stderr);
  });
});

describe('generated operations.json', () => {
  const json = readJson(OUTPUT_FILES.operations) as { digest: string; v1: unknown[]; v0: unknown[] };

  it('has the digest of the canonical registry JSON (sha256 hex of v1 + v0 rows)', () => {
    const expected = createHash('sha256')
      .update(canonicalJson({ v1: json.v1, v0: json.v0 }))
      .digest('hex');
    assert.equal(json.digest, expected);
    assert.equal(json.digest, registryDigest(json.v1 as never, json.v0 as never));
  });

  it('counts: 237 v1 (235 authenticated, 14 if-match, 31 cas) and 87 v0', () => {
    const v1 = json.v1 as { authenticated: boolean; concurrency: string }[];
    assert.equal(v1.length, 237);
    assert.equal(v1.filter((r) => r.authenticated).length, 235);
    assert.equal(v1.filter((r) => r.concurrency === 'if-match').length, 14);
    assert.equal(v1.filter((r) => r.concurrency === 'cas').length, 31);
    assert.equal(json.v0.length, 87);
  });
});

type Operation = Record<string, unknown> & { security: Record<string, string[]>[] };
const operationsOf = (doc: Record<string, unknown>) =>
  Object.entries(doc['paths'] as Record<string, Record<string, Operation>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));

describe('generated v1.openapi.json', () => {
  const doc = readJson(OUTPUT_FILES.v1OpenApi);
  const ops = operationsOf(doc);

  it('is OpenAPI 3.1 with the bearer scheme, envelope and error components', () => {
    assert.equal(doc['openapi'], '3.1.0');
    const components = doc['components'] as Record<string, Record<string, Record<string, unknown>>>;
    assert.deepEqual(components['securitySchemes']?.['bearerCredential']?.['scheme'], 'bearer');
    for (const name of ['ErrorDocument', 'Error', 'ListMeta', 'ListLinks', 'AsyncOperation']) {
      assert.ok(components['schemas']?.[name], name);
    }
    for (const name of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag']) {
      assert.ok(components['headers']?.[name], name);
    }
    assert.ok(components['parameters']?.['IdempotencyKey'] && components['parameters']['IfMatch'] && components['parameters']['Cursor']);
    const description = (doc['info'] as Record<string, string>)['description'] ?? '';
    for (const topic of ['Idempotency-Key', 'cursor', 'If-Match', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id']) {
      assert.ok(description.includes(topic), topic);
    }
  });

  it('declares every registry operation with its flags and scoped security', () => {
    assert.equal(ops.length, 237);
    for (const def of v1Operations) {
      const found = ops.find((o) => o.path === def.path && o.method === def.method);
      assert.ok(found, def.operationId);
      const op = found.op;
      assert.equal(op['operationId'], def.operationId);
      assert.deepEqual(
        [op['x-scopes'], op['x-any-of-scopes'], op['x-overlay-scopes'], op['x-concurrency'], op['x-idempotent'], op['x-retry'], op['x-async'], op['x-sensitive']],
        [def.scopes, def.anyOfScopes, def.overlayScopes, def.concurrency, def.idempotent, def.retry, def.async, def.sensitive],
        def.operationId,
      );
      if (!def.authenticated) assert.deepEqual(op.security, [], def.operationId);
      else {
        assert.ok(op.security.length >= 1, def.operationId);
        for (const requirement of op.security) {
          const scopes = requirement['bearerCredential'] ?? [];
          for (const s of def.scopes) assert.ok(scopes.includes(s), `${def.operationId} security lacks ${s}`);
        }
      }
      const responses = op['responses'] as Record<string, unknown>;
      assert.ok(responses[String(def.success)], def.operationId);
      for (const status of def.errors) assert.ok(responses[String(status)], `${def.operationId} ${status}`);
    }
  });
});

describe('generated v0.openapi.json', () => {
  const doc = readJson(OUTPUT_FILES.v0OpenApi);
  const ops = operationsOf(doc);

  it('is the frozen 0.4.5 contract served from {base_url} and {base_url_alt}', () => {
    assert.equal(doc['openapi'], '3.1.0');
    assert.equal((doc['info'] as Record<string, unknown>)['version'], '0.4.5');
    const servers = (doc['servers'] as { url: string }[]).map((s) => s.url);
    assert.deepEqual(servers, ['{base_url}', '{base_url_alt}']);
  });

  it('declares all 87 operations with x-authenticated, x-contract-status and the six responses (+ what v0 really sends: 302, 403, 404)', () => {
    assert.equal(ops.length, 87);
    for (const def of v0Operations) {
      const found = ops.find((o) => o.path === def.path && o.method === def.method);
      assert.ok(found, `${def.method} ${def.path}`);
      const op = found.op;
      assert.equal(op['x-authenticated'], def.authenticated);
      assert.equal(op['x-contract-status'], 'frozen-legacy');
      assert.equal(op['x-availability'], def.availability);
      assert.equal(op['x-v1-operation-id'], def.v1OperationId);
      const frozen = ['200', '201', '204', '400', '401', '429'];
      const sent = [
        ...(def.path === '/' ? ['302'] : []),
        ...(def.availability === 'unavailable' || def.authenticated ? ['403'] : []),
        ...(def.path.includes('{_id}') || def.path === '/calendar/{token}.ics' ? ['404'] : []),
      ];
      assert.deepEqual(Object.keys(op['responses'] as object).sort(), [...frozen, ...sent].sort(), def.operationId);
      assert.deepEqual(op.security, def.authenticated ? [{ apiToken: [] }] : []);
      assert.equal(Boolean(op['requestBody']), def.body === 'required');
    }
  });
});

describe('redocly lint', () => {
  it('both OpenAPI documents pass `redocly lint` with no errors', () => {
    const redocly = resolve(REPO_ROOT, 'node_modules/.bin/redocly');
    const r = spawnSync(redocly, ['lint', OUTPUT_FILES.v1OpenApi, OUTPUT_FILES.v0OpenApi, '--config', 'libs/registry/redocly.yaml'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  });
});

describe('generated v0.openapi.json: what v0 really sends (issue 29)', () => {
  type Response = { $ref?: string; description?: string; headers?: Record<string, unknown>; content?: Record<string, { example?: unknown }> };
  type Doc = { paths: Record<string, Record<string, { responses: Record<string, Response> }>>; components: { responses: Record<string, Response> } };
  const doc = JSON.parse(readFileSync(join(REPO_ROOT, 'libs/registry/generated/v0.openapi.json'), 'utf8')) as Doc;
  const resolved = (op: { method: string; path: string }, status: string): Response | undefined => {
    const response = doc.paths[op.path]![op.method.toLowerCase()]!.responses[status];
    return response?.$ref ? doc.components.responses[response.$ref.replace('#/components/responses/', '')] : response;
  };
  const errorCode = (response: Response | undefined) => (response?.content?.['application/json']?.example as { error?: { code?: string } } | undefined)?.error?.code;

  it('GET / declares its 302 with a Location header (the redirect to v1 discovery)', () => {
    const redirect = resolved({ method: 'GET', path: '/' }, '302');
    assert.ok(redirect, '302');
    assert.ok(redirect.headers?.['Location'], 'Location');
    assert.equal(redirect.content, undefined, 'no body');
  });

  it('the calendar feed answers text/calendar, not JSON', () => {
    const ok = resolved({ method: 'GET', path: '/calendar/{token}.ics' }, '200');
    assert.deepEqual(Object.keys(ok?.content ?? {}), ['text/calendar']);
    assert.match(String(ok?.content?.['text/calendar']?.example), /^BEGIN:VCALENDAR\r\n/);
  });

  it('the 36 /{_id} operations declare 404 not_found', () => {
    const byId = v0Operations.filter((op) => op.path.includes('{_id}'));
    assert.equal(byId.length, 36);
    for (const op of byId) assert.equal(errorCode(resolved(op, '404')), 'not_found', op.operationId);
  });

  it('every authenticated operation declares 403 for a locked team (team_locked), public ones do not', () => {
    for (const op of v0Operations) {
      const refusal = resolved(op, '403');
      if (!op.authenticated) assert.equal(refusal, undefined, op.operationId);
      else if (op.availability === 'unavailable') assert.match(refusal?.description ?? '', /locked/, op.operationId);
      else assert.equal(errorCode(refusal), 'team_locked', op.operationId);
    }
  });
});

describe('generated v0.openapi.json: deprecation and refusal', () => {
  type Doc = { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>; components: { responses: Record<string, { headers?: Record<string, unknown> }> } };
  const doc = JSON.parse(readFileSync(join(REPO_ROOT, 'libs/registry/generated/v0.openapi.json'), 'utf8')) as Doc;
  const responseOf = (ref: string | undefined) => doc.components.responses[(ref ?? '').replace('#/components/responses/', '')];

  it('declares 403 with Deprecation and Link exactly on unavailable operations, and the headers on deprecated-alias successes', () => {
    for (const op of v0Operations) {
      const responses = doc.paths[op.path]![op.method.toLowerCase()]!.responses;
      const refusal = op.availability === 'unavailable' ? responses['403'] : undefined;
      assert.equal(responseOf(responses['403']?.$ref)?.headers?.['Deprecation'] !== undefined, op.availability === 'unavailable', `${op.operationId} 403`);
      if (refusal) assert.deepEqual(Object.keys(responseOf(refusal.$ref)?.headers ?? {}).sort(), ['Deprecation', 'Link']);
      const okHeaders = Object.keys(responseOf(responses['200']!.$ref)?.headers ?? {}).sort();
      assert.deepEqual(okHeaders, op.availability === 'deprecated-alias' ? ['Deprecation', 'Link'] : [], `${op.operationId} 200 headers`);
      for (const status of ['200', '201', '204', '400', '401', '429']) assert.ok(responses[status], `${op.operationId} keeps the frozen ${status}`);
    }
  });
});
