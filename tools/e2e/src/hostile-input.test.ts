import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { internalFailure } from '@workcell/auth-kit';
import { V1_SCOPES } from '@workcell/credentials';
import { issueCredential, issueFeedToken, inTransaction } from '@workcell/db';
import { DomainError } from '@workcell/domain';
import { routeCoverage } from '@workcell/http';
import { type AuthRouter, createInternalClient } from '@workcell/internal-api';
import { findV1Operation, type OperationDefinition, type V0OperationDefinition, v0Operations, v1Operations } from '@workcell/registry';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { callV0, type LegacyReply, startV0Cell, V0_RECIPES, type V0Cell } from './support/v0.js';

/**
 * Issue 10, "5xx on hostile input" and the integer/path-length contract defects, driven by the registry so that
 * every operation added later is covered without new test code. For every served operation of both generations
 * it fills the path with valid-looking ids and sends the hostile value in each path parameter, each declared
 * query parameter and each top-level body field the registry schema declares (for v0, whose payloads are broad,
 * the fields of the v1 successor's body), and asserts: a 4xx (never a 5xx) in the generation's error document
 * (v1 `validation_failed` naming the pointer or parameter, `meta.requestId` = `X-Request-Id`; v0 400
 * `invalid_request` in the legacy shape), and a database whose every row is unchanged.
 */

const env = useTestEnvironment();

// ------------------------------------------------------------------ registry schema introspection (zod 4)

type Def = {
  type: string;
  format?: string;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  shape?: Record<string, unknown>;
  options?: unknown[];
  entries?: Record<string, unknown>;
  values?: unknown[];
};
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function unwrap(schema: unknown): unknown {
  let current = schema;
  while (WRAPPERS.has(defOf(current).type)) current = defOf(current).innerType;
  return current;
}

/** The top-level fields of a request body (object schemas, refined or piped ones, the first object of a union). */
function shapeOf(schema: unknown): Record<string, unknown> | null {
  if (!schema) return null;
  const def = defOf(unwrap(schema));
  if (def.type === 'object') return def.shape ?? null;
  if (def.type === 'pipe') return shapeOf(def.in);
  if (def.type === 'union') for (const option of def.options ?? []) if (shapeOf(option)) return shapeOf(option);
  return null;
}

type Kind = 'text' | 'date' | 'datetime' | 'integer' | 'other';
function kindOf(schema: unknown): Kind {
  const def = defOf(unwrap(schema));
  if (def.type === 'pipe') return defOf(unwrap(def.out)).type === 'number' ? 'integer' : kindOf(def.in);
  if (def.type === 'string') return def.format === 'datetime' ? 'datetime' : def.format === 'date' ? 'date' : 'text';
  return 'other';
}

/** A plausible value of a schema (required fields only); it need not pass every rule, the assertions use pointers. */
function sample(schema: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return undefined;
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sample(def.innerType);
    case 'pipe':
      return sample(def.in);
    case 'string':
      if (def.format === 'datetime') return new Date(Date.now() - 3_600_000).toISOString();
      if (def.format === 'date') return '2026-01-15';
      if (def.format === 'email') return 'someone@example.test';
      if (def.format === 'url') return 'https://example.test/hook';
      if (def.format === 'uuid') return randomUUID();
      return 'sample';
    case 'number':
    case 'bigint':
      return 1;
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return [];
    case 'record':
      return {};
    case 'union':
      return sample(def.options?.[0]);
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).flatMap(([key, field]) => (sample(field) === undefined ? [] : [[key, sample(field)]])));
    default:
      return 'sample';
  }
}

const fieldsOf = (schema: unknown, kinds: readonly Kind[]) => Object.entries(shapeOf(schema) ?? {}).filter(([, field]) => kinds.includes(kindOf(field)));

// ------------------------------------------------------------------ hostile values

const NUL = 'a\u0000b';
const CONTROL = 'a\u0001b';
const LONE_SURROGATE = 'a\ud800b';
const BAD_DATES = { date: ['0000-01-01'], datetime: ['0000-01-01T00:00:00Z', '9999-12-31T23:30:00-01:00'] } as const;
const BAD_QUERY_DATETIMES = ['+275760-09-13T00:00:00Z', ...BAD_DATES.datetime];
const BAD_INTEGERS = ['0x10', '1e2', '0b11', '+2', ' 2', '2 ', '2.0', '-1'];
const q = encodeURIComponent;

describe('hostile input: never a 5xx, always the error document, nothing written', () => {
  let cell: V0Cell;
  let v1: RunningApp;
  let pat: string;
  let feedToken: string;
  const v0Tokens: string[] = [];
  let v0Calls = 0;

  /** v0 limits 100 requests a minute per token and path: a fresh token every 40 requests keeps clear of it. */
  const v0Token = () => v0Tokens[Math.floor(v0Calls++ / 40) % v0Tokens.length]!;

  /** Every row of every table (columns that background work or authentication touch left out). */
  let digestSql = '';
  const snapshot = async (): Promise<string> => {
    const rows = await cell.database.prisma.$queryRawUnsafe<Array<{ t: string; n: number; h: string }>>(digestSql);
    return rows.map((r) => `${r.t}:${r.n}:${r.h}`).join('\n');
  };

  // Raw bodies (strings, bytes) go out as they are: the hostile bytes are the point.
  const send = callV0;

  type Where = { pointer?: string; parameter?: string };
  type ErrorItem = { code: string; status: string; source?: { pointer?: string; parameter?: string } };

  /** Why a reply is not the v1 400 `validation_failed` document naming `where`, or null. */
  const v1Refusal = (reply: LegacyReply, where: Where, status = 400, code = 'validation_failed'): string | null => {
    if (reply.status !== status) return `status ${reply.status}: ${reply.text.slice(0, 300)}`;
    const doc = reply.body as { errors?: ErrorItem[]; meta?: { requestId?: string } };
    if (!Array.isArray(doc?.errors) || doc.errors.length === 0) return `no error document: ${reply.text.slice(0, 300)}`;
    if (doc.meta?.requestId !== reply.headers.get('x-request-id') || !doc.meta?.requestId) return 'meta.requestId differs from X-Request-Id';
    if (!doc.errors.every((e) => e.code === code && e.status === String(status))) return `codes ${doc.errors.map((e) => e.code)}`;
    if (where.pointer !== undefined && !doc.errors.some((e) => e.source?.pointer === where.pointer)) return `no pointer ${where.pointer}: ${reply.text.slice(0, 300)}`;
    if (where.parameter !== undefined && !doc.errors.some((e) => e.source?.parameter === where.parameter)) return `no parameter ${where.parameter}: ${reply.text.slice(0, 300)}`;
    return null;
  };

  /** Why a reply is not the v0 legacy error with this status, or null. */
  const v0Refusal = (reply: LegacyReply, status = 400, code = 'invalid_request'): string | null => {
    if (reply.status !== status) return `status ${reply.status}: ${reply.text.slice(0, 300)}`;
    const error = (reply.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (!error || typeof error.message !== 'string' || Object.keys(reply.body as object).length !== 1) return `not the legacy shape: ${reply.text.slice(0, 300)}`;
    if (error.code !== code) return `code ${String(error.code)}`;
    if (!reply.headers.get('x-request-id')) return 'no X-Request-Id';
    return null;
  };

  const fillV1 = (op: OperationDefinition, hostile?: [string, string]) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => (hostile?.[0] === name ? hostile[1] : name === 'versionNumber' ? '1' : randomUUID()));
  const fillV0 = (op: V0OperationDefinition, hostile?: string) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => hostile ?? (name === 'token' ? feedToken : randomUUID()));

  beforeAll(async () => {
    cell = await startV0Cell(env, { v1: true, settings: { V1_RATE_LIMIT_READ_PER_MINUTE: '100000', V1_RATE_LIMIT_WRITE_PER_MINUTE: '100000' } });
    v1 = cell.v1!;
    const { workspaceId, memberId } = cell.team;
    pat = (await inTransaction(cell.database, (tx) => issueCredential(tx, cell.config, { workspaceId, kind: 'personal_access_token', name: 'hostile', scopes: V1_SCOPES, memberId }))).token;
    feedToken = await inTransaction(cell.database, (tx) => issueFeedToken(tx, cell.config, { workspaceId, memberId }));
    for (let i = 0; i < 40; i++) v0Tokens.push(await cell.team.token());
    const tables = await cell.database.prisma.$queryRawUnsafe<Array<{ tablename: string }>>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    digestSql = tables
      .map(({ tablename }) => {
        // Authentication records use (last_used_at, and Prisma's updated_at with it) at most once a minute.
        const touched = ['credentials', 'team_tokens', 'calendar_feed_tokens'].includes(tablename) ? ` - 'updated_at'` : '';
        const row = `md5((to_jsonb(x) - 'last_used_at' - 'published_at'${touched})::text)`;
        return `SELECT '${tablename}' AS t, count(*)::int AS n, md5(coalesce(string_agg(${row}, ',' ORDER BY ${row}), '')) AS h FROM "${tablename}" x`;
      })
      .join(' UNION ALL ');
  });
  afterAll(() => cell?.close());

  it('v1: NUL, control characters and lone surrogates in every path, query and body string: 400 naming it', async () => {
    const served = new Set(routeCoverage(v1.app as NestFastifyApplication).implemented);
    const operations = v1Operations.filter((op) => served.has(op.operationId));
    const failures: string[] = [];
    let requests = 0;
    const before = await snapshot();
    for (const op of operations) {
      const headers: Record<string, string> = op.concurrency === 'if-match' ? { 'if-match': '"1"' } : {};
      const base = op.request.body ? (sample(op.request.body) as Record<string, unknown>) : undefined;
      const body = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
      const check = async (label: string, path: string, payload: unknown, where: Where) => {
        requests++;
        const problem = v1Refusal(await send(v1, op.method, path, pat, body(payload), headers), where);
        if (problem) failures.push(`${op.operationId} ${label}: ${problem}`);
      };
      for (const name of Object.keys(op.request.path?.shape ?? {})) await check(`path ${name}`, fillV1(op, [name, q(NUL)]), base, { parameter: name });
      for (const name of Object.keys(op.request.query?.shape ?? {})) {
        await check(`query ${name}`, `${fillV1(op)}?${name}=${q(NUL)}`, base, { parameter: name });
        await check(`query ${name} (control)`, `${fillV1(op)}?${name}=${q(CONTROL)}`, base, { parameter: name });
      }
      // An undeclared query parameter carrying NUL is refused as such, too.
      await check('undeclared query', `${fillV1(op)}?x${q(NUL)}=1`, base, { parameter: 'query' });
      if (op.method !== 'GET' && op.request.body) {
        for (const [field] of fieldsOf(op.request.body, ['text', 'date', 'datetime'])) {
          await check(`body ${field}`, fillV1(op), { ...base, [field]: NUL }, { pointer: `/${field}` });
          await check(`body ${field} (control)`, fillV1(op), { ...base, [field]: CONTROL }, { pointer: `/${field}` });
          await check(`body ${field} (surrogate)`, fillV1(op), { ...base, [field]: LONE_SURROGATE }, { pointer: `/${field}` });
        }
        await check('body key', fillV1(op), { ...base, [NUL]: 'x' }, { pointer: `/${NUL}` });
        await check('nested body', fillV1(op), { ...base, nested: [{ deeper: NUL }] }, { pointer: '/nested/0/deeper' });
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(requests > 500, `${requests} requests over ${operations.length} operations`);
    assert.equal(await snapshot(), before, 'nothing was written');
  });

  it('v0: NUL in every path value, query value and body field: 400 invalid_request', async () => {
    const failures: string[] = [];
    let requests = 0;
    const before = await snapshot();
    for (const op of v0Operations) {
      const segment = op.path.split('/')[1] ?? '';
      const v1Body = op.v1OperationId ? findV1Operation(op.v1OperationId)?.request.body : undefined;
      const recipe = V0_RECIPES[segment];
      const base = op.body === 'required' || op.bodyAlias ? { ...(recipe?.create(randomUUID()) ?? {}), ...(op.bodyAlias ? { _id: randomUUID() } : {}) } : undefined;
      const check = async (label: string, path: string, payload: unknown) => {
        requests++;
        const token = op.authenticated ? v0Token() : undefined;
        // An `unavailable` operation reads no input: its guard refuses it (403, naming v1) whatever it holds.
        const expected: [number, string] = op.availability === 'unavailable' ? [403, 'forbidden'] : [400, 'invalid_request'];
        const problem = v0Refusal(await send(cell.v0, op.method, path, token, payload === undefined ? undefined : JSON.stringify(payload)), ...expected);
        if (problem) failures.push(`${op.method} ${op.path} ${label}: ${problem}`);
      };
      if (op.pathParams.length > 0) await check('path', fillV0(op, q(NUL)), base);
      for (const name of Object.keys(op.request.query?.shape ?? {})) await check(`query ${name}`, `${fillV0(op)}?${name}=${q(NUL)}`, base);
      await check('undeclared query', `${fillV0(op)}?from=${q(NUL)}`, base);
      if (base !== undefined) {
        const fields = new Set([...Object.keys(base), ...fieldsOf(v1Body, ['text', 'date', 'datetime']).map(([name]) => name)]);
        for (const field of fields) await check(`body ${field}`, fillV0(op), { ...base, [field]: NUL });
        await check('body key', fillV0(op), { ...base, [NUL]: 'x' });
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(requests > 250, `${requests} requests`);
    assert.equal(await snapshot(), before, 'nothing was written');
  });

  it('v1: dates outside 0001-9999 and integers not in decimal digits: 400 naming the field', async () => {
    const served = new Set(routeCoverage(v1.app as NestFastifyApplication).implemented);
    const failures: string[] = [];
    let requests = 0;
    const before = await snapshot();
    for (const op of v1Operations.filter((o) => served.has(o.operationId))) {
      const headers: Record<string, string> = op.concurrency === 'if-match' ? { 'if-match': '"1"' } : {};
      const base = op.request.body ? (sample(op.request.body) as Record<string, unknown>) : undefined;
      const check = async (label: string, path: string, payload: unknown, where: Where) => {
        requests++;
        const problem = v1Refusal(await send(v1, op.method, path, pat, payload === undefined ? undefined : JSON.stringify(payload), headers), where);
        if (problem) failures.push(`${op.operationId} ${label}: ${problem}`);
      };
      for (const [name, field] of Object.entries(op.request.query?.shape ?? {})) {
        const kind = kindOf(field);
        const values = kind === 'integer' ? BAD_INTEGERS : kind === 'datetime' ? BAD_QUERY_DATETIMES : kind === 'date' ? BAD_DATES.date : [];
        for (const value of values) await check(`query ${name}=${value}`, `${fillV1(op)}?${name}=${q(value)}`, base, { parameter: name });
      }
      for (const [name, field] of Object.entries(op.request.path?.shape ?? {})) {
        if (kindOf(field) === 'integer') for (const value of BAD_INTEGERS) await check(`path ${name}=${value}`, fillV1(op, [name, q(value)]), base, { parameter: name });
      }
      if (op.method !== 'GET' && op.request.body) {
        for (const [name, field] of fieldsOf(op.request.body, ['date', 'datetime'])) {
          for (const value of BAD_DATES[kindOf(field) as 'date' | 'datetime']) await check(`body ${name}=${value}`, fillV1(op), { ...base, [name]: value }, { pointer: `/${name}` });
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(requests > 100, `${requests} requests`);
    assert.equal(await snapshot(), before, 'nothing was written');
  });

  it('v0: page/limit in decimal digits only on every list and the calendar feed; dates out of range are 4xx', async () => {
    const failures: string[] = [];
    const before = await snapshot();
    for (const op of v0Operations.filter((o) => o.pageQuery)) {
      for (const name of ['page', 'limit']) {
        for (const value of BAD_INTEGERS) {
          const reply = await send(cell.v0, 'GET', `${fillV0(op)}?${name}=${q(value)}`, op.authenticated ? v0Token() : undefined);
          const problem = v0Refusal(reply);
          if (problem) failures.push(`${op.path}?${name}=${value}: ${problem}`);
        }
      }
    }
    for (const value of BAD_QUERY_DATETIMES) {
      for (const name of ['from', 'to']) {
        const problem = v0Refusal(await send(cell.v0, 'GET', `/scheduledWork?${name}=${q(value)}`, v0Token()));
        if (problem) failures.push(`/scheduledWork?${name}=${value}: ${problem}`);
      }
    }
    // v0 bodies are broad: the v1 procedure's own checks and, behind them, the database's refusal (SQLSTATE 22008)
    // mapped once at the edge make each a 400.
    const v0Dates: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/times', { startedAt: '0000-01-01T00:00:00Z', durationSeconds: 600 }],
      ['POST', '/times', { startedAt: '9999-12-31T23:59:59Z', durationSeconds: 600 }],
      ['POST', '/tasks', { title: 'Dated', dueAt: '0000-01-01T00:00:00Z' }],
      ['POST', '/projects', { name: 'Dated', startsOn: '0000-01-01' }],
    ];
    for (const [method, path, payload] of v0Dates) {
      const problem = v0Refusal(await send(cell.v0, method, path, v0Token(), JSON.stringify(payload)));
      if (problem) failures.push(`${method} ${path} ${JSON.stringify(payload)}: ${problem}`);
    }
    assert.deepEqual(failures, []);
    assert.equal(await snapshot(), before, 'nothing was written');
  });

  it('date arithmetic past 9999-12-31 is a 400 with a pointer (time entry duration, template offsets)', async () => {
    const before = await snapshot();
    const entry = await send(v1, 'POST', '/v1/time-entries', pat, JSON.stringify({ startedAt: '9999-12-31T23:59:59Z', durationSeconds: 600 }));
    assert.equal(v1Refusal(entry, { pointer: '/durationSeconds' }), null);
    assert.equal(await snapshot(), before);
    const template = await send(v1, 'POST', '/v1/project-templates', pat, JSON.stringify({ name: 'Far future', taskBlueprints: [{ title: 'Later', offsetDays: 10, durationDays: 5 }] }));
    assert.equal(template.status, 201, template.text);
    const id = (template.body as { data: { id: string } }).data.id;
    const afterTemplate = await snapshot();
    const instantiated = await send(v1, 'POST', `/v1/project-templates/${id}/instantiate`, pat, JSON.stringify({ name: 'Too late', startsOn: '9999-12-31' }));
    assert.equal(v1Refusal(instantiated, { pointer: '/startsOn' }), null);
    assert.equal(await snapshot(), afterTemplate);
  });

  it('a NUL in a credential name is a 400, never a 503; the auth channel carries a refused value back as the domain error', async () => {
    const before = await snapshot();
    const reply = await send(v1, 'POST', '/v1/credentials', pat, JSON.stringify({ name: NUL, scopes: ['tags:read'] }));
    assert.equal(v1Refusal(reply, { pointer: '/name' }), null);
    assert.equal(reply.headers.get('retry-after'), null);
    // Behind the edge: the auth service itself meets a value PostgreSQL refuses (SQLSTATE 22021).
    const client = createInternalClient<AuthRouter>(cell.config.internalUrls.auth, cell.config);
    const authenticated = await client.identity.authenticateCredential.mutate({ token: pat });
    assert.ok(authenticated.ok);
    const failure = await client.credentials.create.mutate({ auth: authenticated.context, requestId: null, input: { name: NUL, scopes: ['tags:read'] } }).then(
      () => assert.fail('the auth service stored a NUL'),
      (error: unknown) => error,
    );
    assert.throws(
      () => internalFailure(failure),
      (error: unknown) => error instanceof DomainError && error.code === 'validation_failed',
    );
    assert.equal(await snapshot(), before);
  });

  it('invalid UTF-8 (body bytes, escaped lone surrogates, percent-encoding) is a 400, never stored as U+FFFD', async () => {
    const before = await snapshot();
    const badBytes = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
    assert.equal(v1Refusal(await send(v1, 'POST', '/v1/tags', pat, badBytes), {}, 400, 'invalid_json'), null);
    const overlong = Buffer.concat([Buffer.from('{"title":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('b"}')]);
    assert.equal(v0Refusal(await send(cell.v0, 'POST', '/tasks', v0Token(), overlong)), null);
    assert.equal(v1Refusal(await send(v1, 'POST', '/v1/tags', pat, '{"name":"a\\udc00b"}'), { pointer: '/name' }), null);
    assert.equal(v1Refusal(await send(v1, 'GET', '/v1/tags?cursor=%FF', pat), { parameter: 'cursor' }), null);
    assert.equal(v1Refusal(await send(v1, 'GET', '/v1/contacts?q=%C3%28', pat), { parameter: 'q' }), null);
    assert.equal(v1Refusal(await send(v1, 'GET', '/v1/tags?cursor=%', pat), { parameter: 'cursor' }), null);
    assert.equal(v1Refusal(await send(v1, 'GET', `/v1/tags/${randomUUID()}%FF`, pat), { parameter: 'path' }), null);
    assert.equal(v0Refusal(await send(cell.v0, 'GET', '/tasks?page=%FF', v0Token())), null);
    assert.equal(v0Refusal(await send(cell.v0, 'GET', `/tasks/${randomUUID()}%E2%82`, v0Token())), null);
    assert.equal(await snapshot(), before);
  });

  it('a byte-order mark before a JSON body is 400 invalid_json (RFC 8259 8.1: JSON text carries none), in both generations, without a write', async () => {
    const before = await snapshot();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const v1Reply = await send(v1, 'POST', '/v1/tags', pat, Buffer.concat([bom, Buffer.from('{"name":"bom"}')]));
    assert.equal(v1Refusal(v1Reply, {}, 400, 'invalid_json'), null);
    assert.match((v1Reply.body as { errors: { detail: string }[] }).errors[0]?.detail ?? '', /byte order mark/);
    assert.equal(v1Refusal(await send(v1, 'PATCH', `/v1/tags/${randomUUID()}`, pat, Buffer.concat([bom, Buffer.from('{"name":"bom"}')])), {}, 400, 'invalid_json'), null);
    assert.equal(v0Refusal(await send(cell.v0, 'POST', '/tasks', v0Token(), Buffer.concat([bom, Buffer.from('{"title":"bom"}')]))), null);
    assert.equal(await snapshot(), before);
    // U+FEFF anywhere else is text like any other character (a zero-width no-break space inside a name is kept).
    const inside = await send(v1, 'POST', '/v1/tags', pat, Buffer.from('{"name":"bom\ufeffinside"}'));
    assert.equal(inside.status, 201, inside.text);
    assert.equal((inside.body as { data: { name: string } }).data.name, 'bom\ufeffinside');
  });

  it('only identity-encoded JSON bodies are read: other media types and Content-Encoding answer 415', async () => {
    const before = await snapshot();
    const cases: Array<[string, Record<string, string>]> = [
      ['name=formtag', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['name=formtag', { 'content-type': 'text/plain' }],
      ['{"name":"gz"}', { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
      ['{"name":"br"}', { 'content-type': 'application/json', 'content-encoding': 'br' }],
      ['{"name":"xml"}', { 'content-type': 'application/xml' }],
      ['{"name":"latin1"}', { 'content-type': 'application/json; charset=iso-8859-1' }],
    ];
    for (const [payload, headers] of cases) {
      const v1Reply = await fetch(`${v1.url}/v1/tags`, { method: 'POST', headers: { authorization: `Bearer ${pat}`, ...headers }, body: payload });
      const text = await v1Reply.text();
      assert.equal(v1Refusal({ status: v1Reply.status, body: JSON.parse(text), text, headers: v1Reply.headers }, {}, 415, 'unsupported_media_type'), null, JSON.stringify(headers));
      const v0Reply = await fetch(`${cell.v0.url}/tasks`, { method: 'POST', headers: { authorization: `Bearer ${v0Token()}`, ...headers }, body: payload.replace('name', 'title') });
      const v0Text = await v0Reply.text();
      assert.equal(v0Refusal({ status: v0Reply.status, body: JSON.parse(v0Text), text: v0Text, headers: v0Reply.headers }, 415, 'unsupported_media_type'), null, JSON.stringify(headers));
    }
    // identity is no encoding at all.
    const identity = await send(v1, 'POST', '/v1/tags', pat, '{"name":"identity"}', { 'content-encoding': 'identity' });
    assert.equal(identity.status, 201, identity.text);
    const utf8 = await send(v1, 'POST', '/v1/tags', pat, '{"name":"utf8"}', { 'content-type': 'application/json; charset=UTF-8' });
    assert.equal(utf8.status, 201, utf8.text);
    const created = await cell.database.prisma.tag.findMany({ where: { workspaceId: cell.team.workspaceId, name: { in: ['formtag', 'gz', 'br', 'xml', 'latin1'] } } });
    assert.deepEqual(created, []);
    assert.notEqual(await snapshot(), before);
  });

  it('a path value over 100 characters flows through routing: 401 first, then the registry path validation; a calendar token is never echoed', async () => {
    for (const length of [101, 1000, 8000]) {
      const long = 'a'.repeat(length);
      const unauthenticatedV1 = await send(v1, 'GET', `/v1/tags/${long}`, undefined);
      assert.equal(v1Refusal(unauthenticatedV1, {}, 401, 'unauthenticated'), null, `v1 ${length}`);
      assert.equal(v1Refusal(await send(v1, 'GET', `/v1/tags/${long}`, pat), { parameter: 'id' }), null, `v1 ${length}`);
      assert.equal(v1Refusal(await send(v1, 'PATCH', `/v1/tags/${long}`, pat, '{"name":"x"}'), { parameter: 'id' }), null, `v1 ${length}`);
      assert.equal(v0Refusal(await send(cell.v0, 'GET', `/tasks/${long}`, undefined), 401, 'unauthorized'), null, `v0 ${length}`);
      assert.equal(v0Refusal(await send(cell.v0, 'GET', `/tasks/${long}`, v0Token())), null, `v0 ${length}`);
      const calendarToken = `${feedToken}${'Z'.repeat(length)}`;
      const calendar = await send(cell.v0, 'GET', `/calendar/${calendarToken}.ics`, undefined);
      assert.ok(calendar.status === 400 || calendar.status === 404, `calendar ${length}: ${calendar.status}`);
      assert.ok(legacyErrorShape(calendar), calendar.text);
      assert.ok(!calendar.text.includes(feedToken.slice(-20)) && !calendar.text.includes('ZZZZZZZZ'), 'the token is not echoed');
    }
  });

  it('prototype-pollution keys, repeated keys, deep nesting, huge numbers and huge strings are 4xx without a write', async () => {
    const before = await snapshot();
    const depth = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const bodies: Array<[string, string]> = [
      ['__proto__', '{"name":"proto","__proto__":{"admin":true}}'],
      ['constructor.prototype', '{"name":"ctor","constructor":{"prototype":{"admin":true}}}'],
      ['repeated key', '{"name":"first","name":"second"}'],
      ['repeated escaped key', '{"name":"first","n\\u0061me":"second"}'],
      ['deep nesting', `{"name":"deep","extra":${depth(100)}}`],
      ['very deep nesting', `{"name":"deeper","extra":${depth(200_000)}}`],
      ['huge number', '{"name":"big","position":1e400}'],
      ['huge integer', '{"name":"big","position":123456789012345678901234567890}'],
      ['huge string', JSON.stringify({ name: 'x'.repeat(900_000) })],
      ['oversized body', JSON.stringify({ name: 'x'.repeat(2_000_000) })],
    ];
    for (const [label, payload] of bodies) {
      for (const [app, path, token] of [
        [v1, '/v1/lists', pat],
        [cell.v0, '/lists', v0Token()],
      ] as const) {
        const reply = await send(app, 'POST', path, token, payload.replace('"name":', app === v1 ? '"kind":"tasks","name":' : '"kind":"tasks","name":'));
        assert.ok(reply.status >= 400 && reply.status < 500, `${path} ${label}: ${reply.status} ${reply.text.slice(0, 200)}`);
        if (app === v1) assert.equal(v1Refusal(reply, {}, reply.status, (reply.body as { errors: ErrorItem[] }).errors[0]!.code), null, label);
        else assert.ok(legacyErrorShape(reply), `${label}: ${reply.text.slice(0, 200)}`);
      }
    }
    // Through v0's broad payload too: a huge number or string in a field the procedure reads.
    for (const payload of ['{"name":"big","kind":"tasks","position":99999999999999999999}', JSON.stringify({ title: 'x'.repeat(900_000) })]) {
      const reply = await send(cell.v0, 'POST', payload.includes('title') ? '/tasks' : '/lists', v0Token(), payload);
      assert.equal(reply.status, 400, reply.text.slice(0, 200));
    }
    assert.equal(await snapshot(), before);
  });

  function legacyErrorShape(reply: LegacyReply): boolean {
    const error = (reply.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    return !!error && typeof error.code === 'string' && typeof error.message === 'string' && !!reply.headers.get('x-request-id');
  }
});
