import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ErrorDocument, LegacyError, LegacyResponse, listEnvelope, singleEnvelope, v0Operations, v1Operations } from '@workcell/registry';
import { sentErrors } from './error-codes.js';
import { exampleOf, shortestMatch } from './examples.js';
import { REPO_ROOT } from './generate.js';
import { OUTPUT_FILES } from './render.js';

/**
 * Every example the documents show parses with the registry's zod schema it illustrates (the source the JSON
 * Schemas were generated from, refinements included), and the error codes each v1 operation documents are the
 * ones error-codes.ts derives from its entry.
 */

type Json = Record<string, unknown>;
type Operation = { parameters?: Json[]; requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, Json> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { parameters: Record<string, Json>; responses: Record<string, Json> } };

const read = (path: string) => JSON.parse(readFileSync(resolve(REPO_ROOT, path), 'utf8')) as Document;
const v1 = read(OUTPUT_FILES.v1OpenApi);
const v0 = read(OUTPUT_FILES.v0OpenApi);

const deref = (doc: Document, value: Json, kind: 'parameters' | 'responses'): Json => {
  const ref = value['$ref'];
  return typeof ref === 'string' ? doc.components[kind][ref.replace(`#/components/${kind}/`, '')]! : value;
};

/** A schema's parse, failing with the operation, the part and zod's issues. */
function parses(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  assert.ok(result.success, `${what}: ${JSON.stringify(value)}\n${result.success ? '' : JSON.stringify(result.error.issues, null, 1)}`);
}

/** The parameters' examples by location, as they travel (strings; header names in lower case, as Node delivers them). */
function parameterExamples(doc: Document, op: Operation, what: string): Record<'path' | 'query' | 'header', Record<string, string>> {
  const out = { path: {}, query: {}, header: {} } as Record<'path' | 'query' | 'header', Record<string, string>>;
  for (const parameter of (op.parameters ?? []).map((p) => deref(doc, p, 'parameters'))) {
    if (doc === v1 && parameter['in'] === 'query' && parameter['required'] !== true) continue;
    assert.ok('example' in parameter, `${what}: parameter ${String(parameter['name'])} has no example`);
    const name = String(parameter['name']);
    out[parameter['in'] as 'path' | 'query' | 'header'][parameter['in'] === 'header' ? name.toLowerCase() : name] = String(parameter['example']);
  }
  return out;
}

type Request = { readonly path: z.ZodType | null; readonly query: z.ZodType | null; readonly headers?: z.ZodType | null; readonly body: z.ZodType | null };

/** The operation's parameter and request body examples parse with its registry schemas (the body's must exist). */
function parsesRequest(doc: Document, op: Operation, request: Request, what: string): void {
  const params = parameterExamples(doc, op, what);
  if (request.path) parses(request.path, params.path, `${what} path`);
  if (request.query) parses(request.query, params.query, `${what} query`);
  if (request.headers) parses(request.headers, params.header, `${what} headers`);
  if (request.body) {
    const example = op.requestBody?.content['application/json']?.example;
    assert.ok(example !== undefined, `${what}: no request body example`);
    parses(request.body, example, `${what} body`);
  }
}

const json = (media: Json | undefined) => (media?.['content'] as Record<string, Json> | undefined)?.['application/json'];

describe('v1.openapi.json examples', () => {
  it('every operation has request and response examples that parse with its registry schemas', () => {
    let checked = 0;
    for (const def of v1Operations) {
      const op = v1.paths[def.path]![def.method.toLowerCase()]!;
      const what = def.operationId;
      parsesRequest(v1, op, def.request, what);
      const success = json(op.responses[String(def.success)]);
      if (def.response.kind === 'single' || def.response.kind === 'list') {
        assert.ok(success && 'example' in success, `${what}: no response example`);
        parses(def.response.kind === 'single' ? singleEnvelope(def.response.schema) : listEnvelope(def.response.schema), success['example'], `${what} response`);
      }
      checked++;
    }
    assert.equal(checked, 237);
  });

  it('every error response shows an error document per code it lists, and those are the codes error-codes.ts derives', () => {
    for (const def of v1Operations) {
      const op = v1.paths[def.path]![def.method.toLowerCase()]!;
      const sent = sentErrors(def);
      const declared = Object.keys(op.responses).filter((status) => status !== String(def.success));
      // Every operation also declares the 500 a defect would answer (never expected: bad input is a 4xx).
      assert.deepEqual(declared, [...sent.map((s) => s.status), 500].sort((a, b) => a - b).map(String), def.operationId);
      const internal = deref(v1, op.responses['500']!, 'responses');
      assert.deepEqual(internal['x-error-codes'], ['internal_error'], def.operationId);
      const internalExample = (json(internal)?.['examples'] as Record<string, { value: unknown }>)['internal_error']!.value;
      parses(ErrorDocument, internalExample, `${def.operationId} 500`);
      for (const { status, codes } of sent) {
        const response = deref(v1, op.responses[String(status)]!, 'responses');
        assert.deepEqual(
          response['x-error-codes'],
          codes.map((c) => c.code),
          `${def.operationId} ${status}`,
        );
        const examples = json(response)?.['examples'] as Record<string, { value: { errors: { code: string; status: string }[] } }>;
        assert.deepEqual(
          Object.keys(examples),
          codes.map((c) => c.code),
          `${def.operationId} ${status}`,
        );
        for (const [code, { value }] of Object.entries(examples)) {
          parses(ErrorDocument, value, `${def.operationId} ${status} ${code}`);
          assert.deepEqual([value.errors[0]?.code, value.errors[0]?.status], [code, String(status)]);
        }
        for (const code of codes) assert.ok(String(response['description']).includes(`\`${code.code}\``), `${def.operationId} ${status} describes ${code.code}`);
      }
    }
  });

  it('documents validation_failed on every operation, 401 and 403 on every authenticated one, 429 and 503 everywhere', () => {
    for (const def of v1Operations) {
      const codes = new Map(sentErrors(def).map((s) => [s.status, s.codes.map((c) => c.code)]));
      assert.ok(codes.get(400)?.includes('validation_failed'), def.operationId);
      assert.deepEqual(codes.get(429), ['rate_limit_exceeded'], def.operationId);
      assert.deepEqual(codes.get(503), ['service_unavailable'], def.operationId);
      if (def.authenticated) {
        assert.deepEqual(codes.get(401), ['unauthenticated', 'credential_expired', 'credential_revoked'], def.operationId);
        assert.deepEqual(codes.get(403)?.slice(0, 1), ['insufficient_scope'], def.operationId);
      }
      if (def.request.body) assert.ok(codes.get(400)?.includes('invalid_json') && codes.has(413) && codes.has(415), def.operationId);
      if (def.idempotent) assert.ok(codes.get(400)?.includes('invalid_idempotency_key') && codes.get(409)?.includes('idempotency_key_reused'), def.operationId);
      if (def.concurrency === 'if-match') assert.ok(codes.get(400)?.includes('invalid_precondition') && codes.has(412) && codes.has(428), def.operationId);
      if (def.concurrency === 'cas') assert.ok(codes.get(409)?.includes('version_conflict'), def.operationId);
    }
  });
});

describe('v1.openapi.json: the reference page\'s "Test Request" (issue 29)', () => {
  it('pre-fills no optional query parameter: none carries an example, in its parameter or its schema', () => {
    let optional = 0;
    for (const def of v1Operations) {
      const op = v1.paths[def.path]![def.method.toLowerCase()]!;
      for (const parameter of (op.parameters ?? []).map((p) => deref(v1, p, 'parameters'))) {
        if (parameter['in'] !== 'query' || parameter['required'] === true) continue;
        optional++;
        const what = `${def.operationId} ${String(parameter['name'])}`;
        assert.ok(!('example' in parameter) && !('examples' in parameter), `${what}: an example Scalar would send`);
        const schema = parameter['schema'] as Json;
        assert.ok(!('example' in schema) && !('examples' in schema), `${what}: a schema example Scalar would send`);
        // A default Scalar may fill in is one the server accepts.
        if ('default' in schema && def.request.query)
          parses(def.request.query, { ...parameterExamples(v1, op, what).query, [String(parameter['name'])]: String(schema['default']) }, `${what} default`);
      }
    }
    assert.ok(optional > 100, `only ${optional} optional query parameters seen`);
  });
});

describe('v0.openapi.json examples', () => {
  it('every operation has parameter and request examples that parse with its registry schemas, and its responses show examples', () => {
    for (const def of v0Operations) {
      const op = v0.paths[def.path]![def.method.toLowerCase()]!;
      const what = def.operationId;
      parsesRequest(v0, op, def.request, what);
      for (const [status, reference] of Object.entries(op.responses)) {
        const media = json(deref(v0, reference, 'responses'));
        if (!media) continue;
        assert.ok('example' in media, `${what} ${status}: no example`);
        parses(status.startsWith('2') ? LegacyResponse : LegacyError, media['example'], `${what} ${status}`);
      }
    }
  });
});

describe('the example generator', () => {
  it('finds the shortest match of the patterns the registry uses', () => {
    const cases: Array<[string, string]> = [
      ['^[A-Za-z0-9_-]+$', '1'],
      ['^"[^"\\s]{1,128}"$', '"1"'],
      ['^#[0-9a-fA-F]{6}$', '#111111'],
      ['^-?\\d{1,15}(\\.\\d{1,6})?$', '1'],
      ['^(?:[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)+|[a-z][A-Za-z0-9]*(?:\\.[a-z][A-Za-z0-9]*)+)$', 'a:a'],
      ['^[a-z]{2}(-[A-Z]{2})?$', 'aa'],
      ['^[\\w.+-]+\\/[\\w.+-]+$', '1/1'],
      ['^[1-5]\\d\\d$', '111'],
      ['^[A-Z]{3}$', 'AAA'],
    ];
    for (const [pattern, expected] of cases) assert.equal(shortestMatch(pattern), expected, pattern);
  });

  it('is deterministic, keeps bounds, and orders instants within one example', () => {
    const schema = {
      type: 'object',
      properties: {
        startsAt: { type: 'string', format: 'date-time' },
        endsAt: { type: 'string', format: 'date-time' },
        count: { type: 'integer', minimum: 5, maximum: 9 },
        below: { type: 'number', maximum: -2 },
        tags: { type: 'array', minItems: 2, items: { type: 'string', maxLength: 4 } },
        memberId: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
      },
    };
    const a = exampleOf(schema, {}) as Record<string, unknown>;
    assert.deepEqual(a, exampleOf(schema, {}));
    assert.ok(String(a['startsAt']) < String(a['endsAt']));
    assert.deepEqual([a['count'], a['below'], (a['tags'] as string[]).length], [5, -2, 2]);
    assert.match(String(a['memberId']), /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    assert.throws(() => exampleOf({ type: 'string', minLength: 3, maxLength: 2 }, {}), /no example string fits/);
  });
});
