import { gzipSync } from 'node:zlib';
import type { FieldKind } from './samples.js';
import type { Probe } from './http.js';

/**
 * Hostile variations of one request, generated from what the registry says about the operation (its body's
 * fields and their kinds, its query parameters, its path parameters, its preconditions), so every operation of
 * both generations gets the same treatment. Each case says whether the contract requires a refusal
 * (`refuse`: a 4xx) or a particular status (`expect`); otherwise only "no 5xx, the generation's error body on
 * every 4xx, nothing written by a refused request" applies.
 */

export interface HostileCase {
  readonly label: string;
  /** The label without field names and values, for grouping findings of many operations. */
  readonly group?: string;
  readonly probe: Probe;
  /** The contract requires a 4xx. */
  readonly refuse?: boolean;
  /** The contract requires one of these statuses. */
  readonly expect?: readonly number[];
}

export interface Field {
  readonly name: string;
  readonly kind: FieldKind;
}

export interface RequestShape {
  readonly method: string;
  /** The path with real ids filled in. */
  readonly path: string;
  /** The path template's parameter positions: `path` split on `/` indexes holding ids. */
  readonly idSegments: readonly number[];
  readonly authenticated: boolean;
  /** Headers of a normal request of this operation (authorization, if-match, ...), without content-type. */
  readonly headers: () => Record<string, string>;
  /** A valid-looking body (undefined: the operation takes none). */
  readonly body: Record<string, unknown> | undefined;
  readonly fields: readonly Field[];
  readonly queryParams: readonly Field[];
  readonly ifMatch: boolean;
  readonly idempotencyKey: boolean;
}

/** NUL, C0/C1 controls, DEL and a lone surrogate. */
const CONTROL = '\u0001\u0008\u000b\u001b\u007f\u0085';
/** Dates outside PostgreSQL's range (year 0, JavaScript's largest date). */
const OUT_OF_RANGE_DATES = ['0000-01-01', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z'];
/** Dates inside the range but at its edge (arithmetic on them may overflow). */
const EDGE_DATES = ['9999-12-31T23:59:59Z', '2026-02-30'];
const PLACEHOLDER = '\u0000__HOSTILE__\u0000';

const jsonHeaders = (shape: RequestShape, extra: Record<string, string> = {}) => ({ ...shape.headers(), 'content-type': 'application/json', ...extra });

/** The body with one field replaced by raw JSON text (numbers JSON cannot express, bytes, ...). */
function rawWith(body: Record<string, unknown>, field: string, raw: string | Buffer): Buffer {
  const text = JSON.stringify({ ...body, [field]: PLACEHOLDER });
  const [head, tail] = text.split(JSON.stringify(PLACEHOLDER)) as [string, string];
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8'), Buffer.from(tail, 'utf8')]);
}

function valuesFor(kind: FieldKind): { label: string; raw: string; refuse?: boolean }[] {
  const s = (v: unknown) => JSON.stringify(v);
  const common = [
    { label: 'null', raw: 'null' },
    { label: 'deep nesting (10,000 arrays)', raw: `${'['.repeat(10_000)}${']'.repeat(10_000)}` },
  ];
  switch (kind) {
    case 'string':
    case 'id':
    case 'date':
    case 'date-time':
      return [
        ...common,
        { label: 'a number instead of a string', raw: '12345' },
        { label: 'NUL in text', raw: s('a\u0000b'), refuse: true },
        { label: 'control characters and a lone surrogate', raw: `${s(`a${CONTROL}`).slice(0, -1)}\\ud800b"` },
        { label: 'huge string (300,000 chars)', raw: s('x'.repeat(300_000)) },
        ...(kind === 'id'
          ? [
              { label: 'not a uuid', raw: s('not-a-uuid') },
              { label: 'nil uuid', raw: s('00000000-0000-0000-0000-000000000000') },
              { label: 'injection-looking id', raw: s("1' OR '1'='1") },
            ]
          : []),
        ...(kind === 'date' || kind === 'date-time'
          ? [...OUT_OF_RANGE_DATES.map((d) => ({ label: `out-of-range date ${d}`, raw: s(d), refuse: true })), ...EDGE_DATES.map((d) => ({ label: `edge date ${d}`, raw: s(d) }))]
          : []),
      ];
    case 'integer':
    case 'number':
      return [
        ...common,
        { label: 'a string instead of a number', raw: '"12"' },
        { label: 'huge number 1e308', raw: '1e308' },
        { label: 'number beyond double (1e400)', raw: '1e400' },
        { label: 'beyond 2^63', raw: '9223372036854775808' },
        { label: 'negative', raw: '-1' },
        { label: 'fraction', raw: '1.5' },
        { label: '-0', raw: '-0' },
      ];
    case 'boolean':
      return [...common, { label: 'a string instead of a boolean', raw: '"true"' }, { label: 'a number instead of a boolean', raw: '1' }];
    case 'array':
      return [
        ...common,
        { label: 'an object instead of an array', raw: '{}' },
        { label: 'array of nulls', raw: '[null,null]' },
        { label: 'array of 20,000 items', raw: `[${Array(20_000).fill('"x"').join(',')}]` },
        { label: 'NUL in an item', raw: s(['a\u0000b']), refuse: true },
      ];
    default:
      return [
        ...common,
        { label: 'an array instead of an object', raw: '[]' },
        { label: 'a string instead of an object', raw: '"x"' },
        { label: 'prototype key inside', raw: '{"__proto__":{"polluted":true}}' },
      ];
  }
}

function bodyCases(shape: RequestShape): HostileCase[] {
  const body = shape.body;
  if (body === undefined) return [];
  const { method, path } = shape;
  const cases: HostileCase[] = [];
  const raw = (label: string, data: string | Buffer, extra: Record<string, string> = {}, flags: Partial<HostileCase> = {}) =>
    cases.push({ label, probe: { method, path, headers: jsonHeaders(shape, extra), body: data }, ...flags });
  const text = JSON.stringify(body);
  const inner = text.slice(1, -1);
  raw('body null', 'null');
  raw('body is an array', '[]');
  raw('body is a string', '"x"');
  raw('body is a number beyond double', '1e400');
  raw('malformed JSON', '{"a":', {}, { refuse: true });
  raw('unknown field', JSON.stringify({ ...body, zzUnknownField: 'x' }));
  raw('__proto__ key', `{"__proto__":{"polluted":true,"isAdmin":true}${inner ? `,${inner}` : ''}}`);
  raw('constructor.prototype key', `{"constructor":{"prototype":{"polluted":true}}${inner ? `,${inner}` : ''}}`);
  const first = shape.fields[0]?.name;
  if (first) raw(`duplicate field ${first}`, `{${inner ? `${inner},` : ''}"${first}":${JSON.stringify(body[first] ?? 'dup')},"${first}":"duplicate"}`);
  raw('deep nesting (100,000 objects)', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
  const stringField = shape.fields.find((f) => f.kind === 'string')?.name ?? shape.fields.find((f) => f.kind === 'id' || f.kind === 'date' || f.kind === 'date-time')?.name;
  if (stringField) {
    const bytes = (label: string, b: number[]) =>
      raw(`invalid UTF-8 ${label} in ${stringField}`, rawWith(body, stringField, Buffer.concat([Buffer.from('"a'), Buffer.from(b), Buffer.from('b"')])), {}, { refuse: true });
    bytes('0xFF 0xFE', [0xff, 0xfe]);
    bytes('truncated sequence 0xC3', [0xc3]);
    bytes('overlong 0xC0 0xAF', [0xc0, 0xaf]);
    bytes('CESU surrogate 0xED 0xA0 0x80', [0xed, 0xa0, 0x80]);
    raw(`oversized body (1.5 MB in ${stringField})`, JSON.stringify({ ...body, [stringField]: 'x'.repeat(1_500_000) }), {}, { refuse: true });
  } else {
    raw('oversized body (1.5 MB)', JSON.stringify({ ...body, zzPadding: 'x'.repeat(1_500_000) }), {}, { refuse: true });
  }
  // Bodies the server cannot read as JSON: 415 (issue 10), never parsed as something else.
  const form =
    Object.entries(body)
      .filter(([, v]) => typeof v !== 'object')
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&') || 'name=x';
  raw('form-encoded body', form, { 'content-type': 'application/x-www-form-urlencoded' }, { expect: [415] });
  raw('multipart body', `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n`, { 'content-type': 'multipart/form-data; boundary=b' }, { expect: [415] });
  raw('Content-Encoding: gzip (gzipped JSON)', gzipSync(Buffer.from(text)), { 'content-encoding': 'gzip' }, { expect: [415] });
  raw('Content-Encoding: br (junk)', '\u0000\u0001junk', { 'content-encoding': 'br' }, { expect: [415] });
  raw('JSON labelled text/plain', text, { 'content-type': 'text/plain' });
  raw('JSON with charset latin1', text, { 'content-type': 'application/json; charset=iso-8859-1' });
  for (const field of shape.fields.slice(0, 8)) {
    for (const value of valuesFor(field.kind)) {
      raw(`${field.name}: ${value.label}`, rawWith(body, field.name, value.raw), {}, value.refuse ? { refuse: true } : {});
    }
  }
  return cases;
}

const INTEGER_SPELLINGS = ['1e2', '0x10', '0b11', '0o7', '+2', '%202', '2%20', '1.0', '1_0'];

function queryCases(shape: RequestShape): HostileCase[] {
  const { method, path } = shape;
  const cases: HostileCase[] = [];
  const q = (label: string, query: string, flags: Partial<HostileCase> = {}) => cases.push({ label, probe: { method, path: `${path}?${query}`, headers: shape.headers() }, ...flags });
  q('unknown query parameter', 'zzUnknown=1');
  for (const { name, kind } of shape.queryParams.slice(0, 10)) {
    q(`${name}: NUL`, `${name}=a%00b`, { refuse: true });
    q(`${name}: control characters`, `${name}=a%01%1b%7fb`);
    q(`${name}: invalid UTF-8`, `${name}=a%ff%feb`);
    q(`${name}: 5,000 chars`, `${name}=${'x'.repeat(5000)}`);
    q(`${name}: repeated`, `${name}=1&${name}=2`);
    q(`${name}: array syntax`, `${name}[]=1`);
    q(`${name}: empty`, `${name}=`);
    if (kind === 'integer' || /^(limit|page)$/.test(name)) {
      for (const spelling of INTEGER_SPELLINGS) q(`${name}: non-decimal integer ${spelling}`, `${name}=${spelling}`, { refuse: true });
      q(`${name}: 20 digits`, `${name}=99999999999999999999`);
      q(`${name}: negative`, `${name}=-1`);
    }
    if (kind === 'date' || kind === 'date-time' || /(^from$|^to$|Since$|From$|To$|At$|On$)/.test(name)) {
      for (const d of OUT_OF_RANGE_DATES) q(`${name}: out-of-range date ${d}`, `${name}=${encodeURIComponent(d)}`, { refuse: true });
      for (const d of EDGE_DATES) q(`${name}: edge date ${d}`, `${name}=${encodeURIComponent(d)}`);
    }
    if (name === 'cursor') {
      q('cursor: garbage', 'cursor=!!!not-a-cursor');
      q('cursor: forged base64url', `cursor=${Buffer.from(JSON.stringify({ id: "x' OR 1=1", t: '0000-01-01' })).toString('base64url')}`);
      q('cursor: 2,000 chars', `cursor=${'A'.repeat(2000)}`);
    }
    if (kind === 'id') q(`${name}: not a uuid`, `${name}=not-a-uuid`);
  }
  return cases;
}

function pathCases(shape: RequestShape): HostileCase[] {
  const cases: HostileCase[] = [];
  const segments = shape.path.split('/');
  for (const index of shape.idSegments) {
    const at = (value: string) => segments.map((s, i) => (i === index ? value : s)).join('/');
    const p = (label: string, value: string, flags: Partial<HostileCase> = {}) =>
      cases.push({
        label: `path segment ${index}: ${label}`,
        probe: { method: shape.method, path: at(value), headers: jsonHeaders(shape), ...(shape.body ? { body: JSON.stringify(shape.body) } : {}) },
        ...flags,
      });
    p('not a uuid', 'not-a-uuid', { refuse: true });
    p('NUL', 'a%00b', { refuse: true });
    p('invalid UTF-8', '%ff%fe', { refuse: true });
    p('101 characters', 'x'.repeat(101), { refuse: true });
    p('encoded traversal', '..%2F..%2Fv1%2Fworkspace', { refuse: true });
    p('nil uuid', '00000000-0000-0000-0000-000000000000', { refuse: true });
  }
  return cases;
}

function headerCases(shape: RequestShape, token: string): HostileCase[] {
  const { method, path } = shape;
  const cases: HostileCase[] = [];
  const body = shape.body ? JSON.stringify(shape.body) : undefined;
  const h = (label: string, headers: Record<string, string | string[]>, flags: Partial<HostileCase> = {}) => {
    const base = { ...shape.headers(), ...(body ? { 'content-type': 'application/json' } : {}) };
    delete (base as Record<string, string>)['authorization'];
    cases.push({ label, probe: { method, path, headers: { ...base, ...headers }, ...(body ? { body } : {}) }, ...flags });
  };
  const auth = shape.authenticated;
  h('no Authorization', {}, auth ? { expect: [401] } : {});
  h('Authorization: Bearer of 8,000 chars', { authorization: `Bearer ${'x'.repeat(8000)}` }, auth ? { expect: [401] } : {});
  h('Authorization twice (valid, then invalid)', { authorization: [`Bearer ${token}`, 'Bearer invalid'] });
  h('lower-case bearer', { authorization: `bearer ${token}` });
  h('X-Request-Id of 300 chars', { authorization: `Bearer ${token}`, 'x-request-id': 'r'.repeat(300) });
  h('a 40 KB header', { authorization: `Bearer ${token}`, 'x-padding': 'p'.repeat(40_000) });
  if (shape.ifMatch) {
    h('If-Match garbage', { authorization: `Bearer ${token}`, 'if-match': 'garbage' }, { refuse: true });
    h('If-Match weak', { authorization: `Bearer ${token}`, 'if-match': 'W/"1"' }, { refuse: true });
    h('If-Match of 300 chars', { authorization: `Bearer ${token}`, 'if-match': `"${'9'.repeat(300)}"` }, { refuse: true });
    h('If-Match missing', { authorization: `Bearer ${token}`, 'if-match': '' }, { refuse: true });
  }
  if (shape.idempotencyKey) {
    h('Idempotency-Key too short', { authorization: `Bearer ${token}`, 'idempotency-key': 'short' }, { expect: [400] });
    h('Idempotency-Key of 300 chars', { authorization: `Bearer ${token}`, 'idempotency-key': 'k'.repeat(300) }, { expect: [400] });
  }
  return cases;
}

/** Every hostile case of one operation. `token` is the credential the normal request carries. */
export function hostileCases(shape: RequestShape, token: string): HostileCase[] {
  const fieldNames = new Set(shape.fields.map((f) => f.name));
  const afterName = (label: string) => label.replace(/^[^:]+: /, '');
  return [
    ...headerCases(shape, token).map((c) => ({ ...c, group: `header: ${c.label}` })),
    ...pathCases(shape).map((c) => ({ ...c, group: `path: ${afterName(c.label)}` })),
    ...queryCases(shape).map((c) => ({ ...c, group: `query: ${afterName(c.label).replace(/^(non-decimal integer|out-of-range date|edge date) .*/, '$1')}` })),
    ...bodyCases(shape).map((c) => ({
      ...c,
      group: fieldNames.has(c.label.split(': ')[0] ?? '')
        ? `body field: ${afterName(c.label)}`
        : `body: ${c.label
            .replace(/ in \w+$/, '')
            .replace(/ \(1\.5 MB.*\)$/, ' (1.5 MB)')
            .replace(/^duplicate field .*/, 'duplicate field')}`,
    })),
  ];
}
