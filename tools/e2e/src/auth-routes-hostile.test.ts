import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createAuthApp } from '@workcell/auth';
import { createDatabase, type Database, DEMO_OWNER_EMAIL, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import { formToken } from '@workcell/domain';
import { mountedRoutes } from '@workcell/http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type RunningApp, startApp, useTestEnvironment } from '@workcell/testing';

/**
 * Issue 27: hostile input on every route of the auth service outside the v1 registry answers a 4xx (never a 5xx,
 * never a hang) in the error document the request asked for: the v1 error document for a JSON request, an HTML page
 * with the same status for a form or page request (apps/auth/src/sign-in/respond.ts says which), and X-Request-Id
 * on every answer. The routes are ENUMERATED from the running service (mountedRoutes), so a route added later is
 * covered without new test code: what the test knows about a route (its fields, a valid body to vary one field of)
 * only makes the cases reach deeper; every route gets the generic cases.
 */

const env = useTestEnvironment({ SIGN_IN_LIMIT_PER_CLIENT: '100000', SIGN_IN_LIMIT_PER_ADDRESS: '1000' });

/** Routes of other contracts, with why they are not exercised here. */
const EXCLUDED: readonly { readonly prefix: string; readonly reason: string }[] = [
  { prefix: '/trpc', reason: 'the internal tRPC channel (mountInternalApi): callers prove INTERNAL_SECRET and errors are tRPC’s own; covered by the internal-api tests' },
  { prefix: '/metrics', reason: 'every service’s Prometheus scrape: no input but a bearer token; covered by metrics.test' },
  { prefix: '/healthz', reason: 'every service’s liveness probe: no input; covered by http-contract.test' },
  { prefix: '/readyz', reason: 'every service’s readiness probe: no input; covered by http-contract.test' },
];
const excluded = (url: string) => EXCLUDED.some(({ prefix }) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}*`));

/** What the test knows of a route: the string fields of its body (or query, for GET) and the session or form cookie it needs. */
interface Knowledge {
  readonly fields: readonly string[];
  readonly needs?: 'session' | 'form';
}
const KNOWN: Readonly<Record<string, Knowledge>> = {
  'GET /sign-in': { fields: ['token'] },
  'POST /sign-in': { fields: ['email', 'csrf'], needs: 'form' },
  'POST /sign-in/complete': { fields: ['token', 'csrf'], needs: 'form' },
  'GET /account': { fields: [], needs: 'session' },
  'POST /account/tokens': { fields: ['workspaceId', 'name', 'scopes', 'expiresOn', 'csrf'], needs: 'session' },
  'POST /account/tokens/revoke': { fields: ['workspaceId', 'id', 'csrf'], needs: 'session' },
  'POST /sign-out': { fields: ['csrf'], needs: 'session' },
  'POST /sign-out/everywhere': { fields: ['csrf'], needs: 'session' },
  'GET /invitations/accept': { fields: ['token'] },
  'POST /invitations/accept': { fields: ['token', 'displayName'] },
};
/** For a route the test does not know: field names such routes commonly read (RFC 8628's among them). */
const GENERIC: Knowledge = { fields: ['token', 'csrf', 'email', 'code', 'user_code', 'device_code', 'client_id', 'grant_type'] };

/** Values where a string is expected: other JSON types, and strings that are too long, not ASCII, or carry NUL. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  0,
  -1.5,
  true,
  [],
  ['a', 'b'],
  {},
  { $gt: '' },
  '',
  ' ',
  'A'.repeat(5_000),
  'é😀'.repeat(400),
  'a\u0000b',
  '\u0000',
  '\ud800',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00%ff',
];
/** The same in a form: every value is a string, a name may repeat or carry brackets. */
const HOSTILE_FORM_VALUES: readonly (string | string[])[] = ['', 'A'.repeat(5_000), 'é😀'.repeat(400), 'a\u0000b', '\u0000', ['a', 'b'], ['', ''], '<script>', '%00'];

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Case {
  readonly name: string;
  /** Whether KNOWN describes the route (its refusals' shape is then exactly the rule's). */
  readonly known?: boolean;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
}

/**
 * A refusal's expected shape: an HTML page for a form post or a page request (a browser's Accept), else the v1 error
 * document. A route the test does not know may answer a form post with either: a machine endpoint that reads forms
 * (RFC 8628's device authorization and token requests) answers in JSON by its contract.
 */
function expectedShape(headers: Record<string, string>, known: boolean): 'page' | 'document' | 'either' {
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (/^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/.test(type)) return known ? 'page' : 'either';
  if (/^\s*application\/json\b/.test(type)) return 'document';
  return /text\/html/.test(headers['accept'] ?? '') ? 'page' : 'document';
}

/** A query value, percent-encoded (a lone surrogate as the bytes a careless client would send). */
const queryValue = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of ([] as string[]).concat(value)) params.append(name, one);
  return params.toString();
};

describe('auth service routes: hostile input', () => {
  let auth: RunningApp<NestFastifyApplication>;
  let database: Database;
  let workspaceId: string;
  let sessionId: string;
  const sessionSecret = randomBytes(32).toString('base64url');
  const formBinding = randomBytes(32).toString('base64url');

  beforeAll(async () => {
    database = createDatabase(env.config, { poolSize: 2 });
    const seeded = await seedDemoWorkspaceIfEmpty(database, env.config);
    assert.ok(seeded);
    workspaceId = seeded.workspaceId;
    const owner = await database.prisma.user.findUniqueOrThrow({ where: { email: DEMO_OWNER_EMAIL } });
    const idHash = new Uint8Array(createHash('sha256').update(sessionSecret).digest());
    sessionId = (await database.prisma.session.create({ data: { userId: owner.id, idHash, expiresAt: new Date(Date.now() + 3600_000) } })).id;
    auth = await startApp((c) => createAuthApp(c), env.config);
  });
  afterAll(async () => {
    await auth?.close();
    await database?.close();
  });

  /** The valid value of a field the test knows, so that a case varying another field gets past it. */
  function validFields(route: string): Record<string, string> {
    const session = { csrf: formToken(env.config, `session:${sessionId}`), workspaceId };
    const byRoute: Record<string, Record<string, string>> = {
      'POST /sign-in': { email: 'nobody@example.com', csrf: formToken(env.config, formBinding) },
      'POST /sign-in/complete': { token: 'not-a-token', csrf: formToken(env.config, formBinding) },
      'POST /account/tokens': { ...session, name: 'hostile', scopes: 'workspace:read', expiresOn: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      'POST /account/tokens/revoke': { ...session, id: '00000000-0000-7000-8000-000000000000' },
      'POST /sign-out': session,
      'POST /sign-out/everywhere': session,
      'POST /invitations/accept': { token: `${workspaceId}.not-a-token` },
    };
    return byRoute[route] ?? {};
  }

  function cookieFor(knowledge: Knowledge): string {
    if (knowledge.needs === 'session') return `wc_session=${sessionSecret}`;
    if (knowledge.needs === 'form') return `wc_form=${formBinding}`;
    return '';
  }

  /** Every case for one route: the generic ones, then one per (field, hostile value) in JSON and in a form. */
  function casesFor(method: string, url: string): Case[] {
    const route = `${method} ${url}`;
    const knowledge = KNOWN[route] ?? GENERIC;
    const path = url.replace(/:(\w+)/g, 'x');
    const cookie = cookieFor(knowledge);
    const base = (headers: Record<string, string>) => (cookie ? { cookie, ...headers } : headers);
    const valid = validFields(route);
    const cases: Case[] = [];
    const known = route in KNOWN;
    const add = (name: string, headers: Record<string, string>, body?: string | Buffer, query = '') =>
      cases.push({ name, known, method, path: `${path}${query}`, headers: base(headers), ...(method === 'GET' || method === 'HEAD' ? {} : body === undefined ? {} : { body }) });
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const urlencoded = { 'content-type': 'application/x-www-form-urlencoded', accept: BROWSER };

    // Content types and encodings it does not read.
    for (const type of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded; charset=utf-16',
      'application/jsonx',
      'image/png',
    ]) {
      add(`content-type ${type}`, { 'content-type': type }, '{"a":1}');
      add(`content-type ${type} from a browser`, { 'content-type': type, accept: BROWSER }, 'a=1');
    }
    add('gzip-encoded JSON', { ...json, 'content-encoding': 'gzip' }, '{}');
    add('a body without a content type', {}, 'email=a@example.com');
    // Malformed and oversized bodies.
    for (const body of [
      '{',
      '{"a":',
      'nul',
      '\u0000',
      '[]',
      '"text"',
      '123',
      'null',
      '\ufeff{}',
      '['.repeat(5_000),
      '{"token":"a","token":"b"}',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ])
      add(`JSON ${JSON.stringify(body.slice(0, 20))}`, json, body);
    add('JSON of invalid UTF-8', json, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    add('oversized JSON', json, JSON.stringify({ ...valid, filler: 'x'.repeat(3 * 1024 * 1024) }));
    for (const body of ['%', '%zz', 'email=%E0%A4%A', '&&&=&=', '=', 'a[b][c]=1&a=2', `${'a'.repeat(100)}=${'b'.repeat(30_000)}`]) add(`form ${JSON.stringify(body.slice(0, 20))}`, urlencoded, body);
    add('oversized form', urlencoded, form({ ...valid, filler: 'x'.repeat(200 * 1024) }));
    add('form of invalid UTF-8', urlencoded, Buffer.concat([Buffer.from('email='), Buffer.from([0xff, 0xfe]), Buffer.from('&csrf=x')]));
    // Cookies: garbage, a forged or missing CSRF binding, oversized.
    for (const garbage of [
      'garbage',
      'wc_session=',
      'wc_session=%%%; wc_form=%%%',
      `wc_session=${'A'.repeat(6_000)}`,
      `wc_form=${'A'.repeat(6_000)}`,
      'wc_session=a; wc_session=b',
      '=; ;;=x',
      `wc_form=${randomBytes(32).toString('base64url')}`,
    ]) {
      cases.push({ name: `cookie ${garbage.slice(0, 24)}`, known, method, path, headers: { cookie: garbage, ...urlencoded }, ...(method === 'GET' || method === 'HEAD' ? {} : { body: form(valid) }) });
    }
    // Odd query strings.
    for (const query of [
      '?token=a&token=b',
      '?token[]=x',
      '?token=%00',
      '?token=%E0%A4%A',
      `?token=${'A'.repeat(6_000)}`,
      '?__proto__=x',
      '?=&=&',
      '?%',
      `?${'a=1&'.repeat(500)}`,
      '?token=%F0%9F%98%80',
    ]) {
      add(`query ${query.slice(0, 24)}`, { accept: BROWSER }, method === 'POST' ? form(valid) : undefined, query);
      add(`query ${query.slice(0, 24)} (JSON)`, { accept: 'application/json' }, undefined, query);
    }
    // One field at a time, the others valid.
    for (const field of knowledge.fields) {
      for (const value of HOSTILE_VALUES)
        add(
          `JSON ${field}=${JSON.stringify(value)?.slice(0, 20)}`,
          json,
          JSON.stringify({ ...valid, [field]: value }),
          method === 'GET' && typeof value === 'string' ? `?${field}=${queryValue(value)}` : '',
        );
      for (const value of HOSTILE_FORM_VALUES)
        add(`form ${field}=${JSON.stringify(value).slice(0, 20)}`, urlencoded, form({ ...valid, [field]: value }), method === 'GET' ? `?${form({ [field]: value })}` : '');
      add(`form ${field}[x]`, urlencoded, form({ ...valid, [`${field}[x]`]: 'y' }));
    }
    return cases;
  }

  async function send(c: Case): Promise<string | null> {
    let response: Response;
    try {
      response = await fetch(`${auth.url}${c.path}`, { method: c.method, headers: c.headers, body: c.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      return `no answer (${error instanceof Error ? error.message : String(error)})`;
    }
    const text = await response.text();
    const requestId = response.headers.get('x-request-id');
    if (!requestId) return `${response.status} without X-Request-Id`;
    if (response.status >= 500) return `${response.status}: ${text.slice(0, 200)}`;
    if (response.status < 400 || c.method === 'HEAD') return null;
    const type = response.headers.get('content-type') ?? '';
    const shape = expectedShape(c.headers, c.known ?? false);
    const page = /^text\/html/.test(type);
    if (shape === 'page' || (shape === 'either' && page)) {
      if (!page || !/<h1>/.test(text)) return `${response.status} is not an HTML page (${type}): ${text.slice(0, 120)}`;
      return null;
    }
    if (!/^application\/json/.test(type)) return `${response.status} is not the v1 error document (${type}): ${text.slice(0, 120)}`;
    type Document = { errors?: { code?: unknown; status?: unknown }[]; meta?: { requestId?: unknown } };
    let body: Document;
    try {
      body = JSON.parse(text) as Document;
    } catch {
      return `${response.status}: not JSON: ${text.slice(0, 120)}`;
    }
    if (typeof body.errors?.[0]?.code !== 'string' || body.errors[0].status !== String(response.status) || body.meta?.requestId !== requestId)
      return `${response.status}: not the v1 error document: ${text.slice(0, 200)}`;
    return null;
  }

  /** A wrong method on a path of the service: 405 with the methods it serves there in Allow. */
  async function allowOf(c: Case, allow: string): Promise<string | null> {
    const response = await fetch(`${auth.url}${c.path}`, { method: c.method, headers: c.headers, body: c.body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status === 405 && response.headers.get('allow') === allow ? null : `${response.status} with Allow ${response.headers.get('allow')}, expected 405 with ${allow}`;
  }

  /** Keeps the test's session alive between cases (a case that signs out with a valid token is not hostile, just early). */
  const revive = () => database.prisma.session.update({ where: { id: sessionId }, data: { revokedAt: null, lastSeenAt: new Date() } });

  it('enumerates the service’s routes: every one is exercised or excluded with a reason, and what the test knows still exists', () => {
    const routes = mountedRoutes(auth.app).filter((r) => !excluded(r.url));
    const names = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const known of Object.keys(KNOWN)) assert.ok(names.has(known), `${known} is no longer a route: update KNOWN`);
    assert.ok(routes.length >= Object.keys(KNOWN).length);
  });

  it('answers every hostile request to every route with a 4xx (or the page) in the asked-for document, never a 5xx or a hang', async () => {
    const routes = mountedRoutes(auth.app).filter((r) => !excluded(r.url));
    const paths = [...new Set(routes.map((r) => r.url))];
    const failures: string[] = [];
    let sent = 0;
    const exercised = new Set<string>();
    for (const { method, url } of routes) {
      for (const c of casesFor(method, url)) {
        await revive();
        const failure = await send(c);
        sent++;
        if (failure) failures.push(`${c.method} ${c.path.slice(0, 60)} [${c.name}]: ${failure}`);
      }
      exercised.add(`${method} ${url}`);
    }
    // Wrong methods on every path.
    for (const url of paths) {
      const served = new Set(routes.filter((r) => r.url === url).map((r) => r.method));
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'].filter((m) => !served.has(m))) {
        for (const headers of [{ accept: BROWSER }, { 'content-type': 'application/json', accept: 'application/json' }] as Record<string, string>[]) {
          const c = { name: 'wrong method', method, path: url.replace(/:(\w+)/g, 'x'), headers, ...(method === 'GET' ? {} : { body: '{}' }) };
          const failure = (await send(c)) ?? (await allowOf(c, [...served].sort().join(', ')));
          sent++;
          if (failure) failures.push(`${method} ${url} [wrong method]: ${failure}`);
        }
      }
    }
    assert.deepEqual([...exercised].sort(), routes.map((r) => `${r.method} ${r.url}`).sort(), 'every enumerated route was exercised');
    assert.ok(sent > 500, `only ${sent} requests`);
    assert.deepEqual(failures, []);
  });

  it('a header past Node’s limit (an oversized cookie) is refused with 431 and X-Request-Id', async () => {
    const response = await fetch(`${auth.url}/account`, { headers: { cookie: `wc_session=${'A'.repeat(20_000)}` }, signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 431);
    assert.ok(response.headers.get('x-request-id'));
  });
});
