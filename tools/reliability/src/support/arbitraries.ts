import fc from 'fast-check';
import { deref, type JsonSchema } from './samples.js';

/**
 * fast-check arbitraries from JSON Schema (the registry's zod request schemas through `jsonSchemaOf`), drawing
 * values the schema accepts with the edges where defects live: the first and last representable day and instant
 * (0001-01-01, 9999-12-31, with the extreme UTC offsets), time zones at ±12/14 hours and with odd minute offsets,
 * strings of the minimum and maximum length and unicode text, empty and maximal arrays, numeric bounds, every
 * enum value, optional properties present and absent, and null where a value is nullable. What the JSON Schema
 * cannot say (which ids exist, a catalogue's names, a service's cross-field rules) comes from `Hints`.
 */

export const FIRST_DAY = '0001-01-01';
export const LAST_DAY = '9999-12-31';
const FIRST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** A fixed "now" for values near the present (recurrences materialise around it): a seed reproduces on any day. */
export const ANCHOR_MS = Date.parse('2026-03-02T09:00:00.000Z');
const DAY_MS = 86_400_000;

/** The extreme offsets (+14, -12), a 15-minute offset, a dateline-adjacent zone and UTC; then some more odd ones. */
export const EXTREME_TIME_ZONES = ['Pacific/Kiritimati', 'Etc/GMT+12', 'Pacific/Pago_Pago', 'Asia/Kathmandu', 'UTC'] as const;
const OTHER_TIME_ZONES = ['Etc/GMT-14', 'Pacific/Chatham', 'Australia/Lord_Howe', 'America/St_Johns', 'Europe/Berlin', 'America/Sao_Paulo', 'Asia/Tehran'];
/** UTC offsets written into instants: the extremes and the odd minute ones. */
const OFFSETS = ['Z', '+00:00', '+14:00', '-12:00', '+05:45', '-09:30', '+13:45', '-00:01'];

/** Arrays are drawn at most this long, also where `maxItems` is larger (500 options, 10,000 ids): a sane request. */
export const MAX_ITEMS = 50;
/** Strings are drawn at most this long (documents allow more; the body limit is 1 MB). */
export const MAX_TEXT = 100_000;

/** Marks a property left out of an object (stripped before the object is returned). */
const ABSENT = Symbol('absent');

export interface Hints {
  /** Existing ids (or tokens the check resolves when sending) for an id-valued property: `projectId`, `tagId`. */
  ids(property: string): readonly string[];
  /**
   * The check's own arbitrary for a property (by name) or a `$defs` component, where the service knows more than
   * the JSON Schema says (catalogues, which custom fields exist); `derived` is the schema's own arbitrary, to mix
   * with. Undefined: the schema's arbitrary alone.
   */
  special?(name: string, component: string | undefined, node: JsonSchema, derived: () => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> | undefined;
  /** How likely an optional property is present (default 1/2). */
  presence?(name: string): number;
}

const DATE_PATTERN_HINT = /\\d\{4\}-/;
const RESOURCE_ID_PATTERN = '^[A-Za-z0-9_-]+$';

/** The days at the edges and those that trip calendar code (leap days, DST changes, the epoch), besides random ones. */
export const dayArbitrary: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(FIRST_DAY, LAST_DAY, '0001-01-02', '9999-12-30', '9999-12-01', '2024-02-29', '2000-02-29', '1900-02-28', '1970-01-01', '2026-03-29', '2026-10-25', '2026-12-31'),
  },
  { weight: 2, arbitrary: fc.date({ min: new Date(FIRST_MS), max: new Date(LAST_MS), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
  { weight: 2, arbitrary: fc.integer({ min: -800, max: 800 }).map((days) => new Date(ANCHOR_MS + days * DAY_MS).toISOString().slice(0, 10)) },
);

/** `ms` written as local time at `offset` (an RFC 3339 instant); the UTC spelling where the local year has no four digits. */
function instantAt(ms: number, offset: string, fraction: boolean): string {
  const minutes = offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(ms + minutes * 60_000).toISOString();
  if (!/^\d{4}-/.test(local)) return new Date(ms).toISOString();
  return `${fraction ? local.slice(0, 23) : local.slice(0, 19)}${offset}`;
}

/** Instants at and just beyond the representable edges in every offset (beyond is a 400, never a 500), and random ones. */
export const instantArbitrary: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59Z',
      '9999-12-31T23:59:59.999999Z',
      '9999-12-31T23:59:59+14:00',
      '0001-01-01T00:00:00-12:00',
      '0000-12-31T12:00:00-12:00',
      '0001-01-01T11:59:59+12:00',
      '9999-12-31T12:00:00-11:59',
      '2024-02-29T23:59:59.999+14:00',
      '2026-03-29T01:30:00+00:00',
    ),
  },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: FIRST_MS, max: LAST_MS }), fc.constantFrom(...OFFSETS), fc.boolean()).map(([ms, offset, fraction]) => instantAt(ms, offset, fraction)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: -800 * DAY_MS, max: 800 * DAY_MS }), fc.constantFrom(...OFFSETS), fc.boolean())
      .map(([delta, offset, fraction]) => instantAt(ANCHOR_MS + delta, offset, fraction)),
  },
);

export const timeZoneArbitrary: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...EXTREME_TIME_ZONES) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_TIME_ZONES) });

/** Characters of one or two UTF-16 units, combining marks and joiners: a string of exactly n units is made of them. */
const FILLERS = ['x', 'é', '字', '😀', '\u0301', 'ǅ', '\u200d', 'İ', ' '];

/** Printable text that means something to SQL LIKE, full-text queries, templates, JSON paths or HTML. */
const TRICKY = ['%', '_', '\\', "'", '"', 'a:*', '!(a&b|c)', '<->', ' & ', 'NULL', '{{event.id}}', '${x}', '<b>', '../', 'a.b', '*', '-', ' ', '\t', '\n', '\u00a0', '\u202e', '\ufeff'];

/** A string of exactly `n` UTF-16 units (what zod's min/max count) of one filler. */
function exactly(n: number): fc.Arbitrary<string> {
  return fc.constantFrom(...FILLERS).map((unit) => unit.repeat(Math.floor(n / unit.length)).padEnd(n, 'x'));
}

/**
 * Free text between `min` and `max` UTF-16 units: short unicode text (any printable grapheme: astral planes,
 * combining marks, right-to-left) mostly, sometimes exactly the minimum or the maximum. Control characters are
 * the hostile-input check's (a NUL is refused by design), so a valid body is not refused for them here.
 */
export function textArbitrary(min: number, max: number): fc.Arbitrary<string> {
  const top = Math.min(max, MAX_TEXT);
  const fits = (s: string) => s.length >= min && s.length <= top;
  const options: fc.WeightedArbitrary<string>[] = [
    { weight: 8, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(top, min + 24) }).filter(fits) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength: 4 })
        .map((parts) => parts.join(''))
        .filter(fits),
    },
    { weight: 1, arbitrary: exactly(top) },
  ];
  if (min > 0) options.push({ weight: 1, arbitrary: exactly(min) });
  return fc.oneof(...options);
}

/**
 * The extreme decimals a decimal-string pattern (`^-?\d{1,15}(\.\d{1,6})?$`: money, quantities, rates) takes: all
 * nines in every digit, with and without sign and fraction, the smallest fraction, zero.
 */
function decimalEdges(pattern: string): string[] {
  const match = /^\^(-\?)?\\d\{1,(\d+)\}\(\\\.\\d\{1,(\d+)\}\)\?\$$/.exec(pattern);
  if (!match) return [];
  const whole = '9'.repeat(Number(match[2]));
  const fraction = '9'.repeat(Number(match[3]));
  const smallest = `0.${'0'.repeat(Number(match[3]) - 1)}1`;
  return [`${whole}.${fraction}`, whole, smallest, '0', '0.0', `-${whole}.${fraction}`, `-${smallest}`, '-0'];
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

const num = (node: JsonSchema, key: string): number | undefined => (typeof node[key] === 'number' ? (node[key] as number) : undefined);

function integerArbitrary(node: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(Number.MIN_SAFE_INTEGER, num(node, 'minimum') ?? (num(node, 'exclusiveMinimum') ?? Number.MIN_SAFE_INTEGER - 1) + 1);
  const max = Math.min(Number.MAX_SAFE_INTEGER, num(node, 'maximum') ?? (num(node, 'exclusiveMaximum') ?? Number.MAX_SAFE_INTEGER + 1) - 1);
  const edges = [...new Set([min, max, min + 1, max - 1, 0, 1, -1])].filter((v) => v >= min && v <= max);
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...edges) }, { weight: 2, arbitrary: fc.integer({ min, max }) });
}

function numberArbitrary(node: JsonSchema): fc.Arbitrary<number> {
  const min = num(node, 'minimum') ?? num(node, 'exclusiveMinimum') ?? -Number.MAX_VALUE;
  const max = num(node, 'maximum') ?? num(node, 'exclusiveMaximum') ?? Number.MAX_VALUE;
  const minExcluded = num(node, 'minimum') === undefined && num(node, 'exclusiveMinimum') !== undefined;
  const maxExcluded = num(node, 'maximum') === undefined && num(node, 'exclusiveMaximum') !== undefined;
  const edges = [min, max, 0, 0.1, 1e15 + 0.5, 5e-324, -1e308, 1e308, Number.MAX_SAFE_INTEGER + 2].filter((v) => (minExcluded ? v > min : v >= min) && (maxExcluded ? v < max : v <= max));
  const any = fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
  return edges.length > 0 ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...edges) }, { weight: 2, arbitrary: any }) : any;
}

/** An id: mostly an existing one, sometimes a random UUID or another valid spelling (a 404 is a fine answer). */
function idArbitrary(node: JsonSchema, name: string, hints: Hints): fc.Arbitrary<string> {
  const existing = hints.ids(name);
  const max = num(node, 'maxLength') ?? 64;
  const options: fc.WeightedArbitrary<string>[] = [
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: node['pattern'] === RESOURCE_ID_PATTERN || node['pattern'] === undefined ? fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{1,${max}}$`)) : fc.uuid() },
  ];
  if (existing.length > 0) options.unshift({ weight: 8, arbitrary: fc.constantFrom(...existing) });
  return fc.oneof(...options);
}

const EMAIL_DOMAINS = ['example.test', 'a.co', 'sub.example.org', 'xn--bcher-kva.example'];

function stringArbitrary(node: JsonSchema, name: string, hints: Hints): fc.Arbitrary<string> {
  const min = num(node, 'minLength') ?? 0;
  const max = num(node, 'maxLength') ?? MAX_TEXT;
  const format = node['format'];
  const pattern = typeof node['pattern'] === 'string' ? node['pattern'] : undefined;
  if (format === 'uuid' || pattern === RESOURCE_ID_PATTERN || /(^id$|^_id$|Id$)/.test(name)) return idArbitrary(node, name, hints);
  if (format === 'date' || (pattern && DATE_PATTERN_HINT.test(pattern) && !pattern.includes('T'))) return dayArbitrary;
  if (format === 'date-time' || (pattern && DATE_PATTERN_HINT.test(pattern))) return instantArbitrary;
  if (format === 'email' || /email$/i.test(name)) {
    return fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9_'+-]{1,40}$/), fc.constantFrom(...EMAIL_DOMAINS))
      .map(([local, domain]) => `${local}@${domain}`)
      .filter((s) => s.length <= max);
  }
  if (/timeZone$/i.test(name)) return timeZoneArbitrary;
  if (format === 'uri' || format === 'url' || /url$/i.test(name)) {
    return fc
      .stringMatching(/^[a-z0-9-]{0,40}$/)
      .map((path) => `https://example.test/hook/${path}`)
      .filter((s) => s.length <= max);
  }
  const regex = pattern ? safeRegExp(pattern) : undefined;
  if (regex) {
    const matching = fc.stringMatching(regex).filter((s) => s.length >= min && s.length <= max);
    const edges = decimalEdges(pattern!).filter((s) => regex.test(s) && s.length >= min && s.length <= max);
    return edges.length > 0 ? fc.oneof({ weight: 2, arbitrary: matching }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : matching;
  }
  return textArbitrary(min, max);
}

/** `[{ a }, { a }]` shrinks and compares by value. */
const byValue = (v: unknown) => JSON.stringify(v);

function arrayArbitrary(node: JsonSchema, root: JsonSchema, name: string, hints: Hints, depth: number): fc.Arbitrary<unknown[]> {
  const itemNode = (node['items'] ?? {}) as JsonSchema;
  const min = num(node, 'minItems') ?? 0;
  if (depth > 5 && min === 0) return fc.constant([]);
  // Distinct values are all there are of an enum (or a boolean): a unique array cannot be longer.
  const resolvedItem = deref(itemNode, root);
  const distinct = Array.isArray(resolvedItem['enum']) ? (resolvedItem['enum'] as unknown[]).length : resolvedItem['type'] === 'boolean' ? 2 : Infinity;
  const max = Math.max(min, Math.min(num(node, 'maxItems') ?? MAX_ITEMS, MAX_ITEMS));
  const item = build(itemNode, root, name.replace(/ies$/, 'y').replace(/s$/, ''), hints, depth + 1);
  const few = Math.min(max, min + 4);
  const options: fc.WeightedArbitrary<unknown[]>[] = [
    { weight: 1, arbitrary: fc.array(item, { minLength: min, maxLength: few }) },
    { weight: 1, arbitrary: fc.array(item, { minLength: max, maxLength: max }) },
  ];
  if (min <= distinct) {
    options.unshift({ weight: 4, arbitrary: fc.uniqueArray(item, { minLength: min, maxLength: Math.min(few, distinct), selector: byValue }) });
    options.push({ weight: 1, arbitrary: fc.uniqueArray(item, { minLength: Math.min(max, distinct), maxLength: Math.min(max, distinct), selector: byValue }) });
  }
  return fc.oneof(...options);
}

/** Range pairs a service requires in order (its end after its start), often within a bounded window. */
const RANGES: readonly (readonly [string, string])[] = [
  ['startsAt', 'endsAt'],
  ['startsOn', 'endsOn'],
  ['startedAt', 'endedAt'],
  ['from', 'to'],
  ['periodStart', 'periodEnd'],
];

type RangeMode = 'as drawn' | 'ordered' | 'close';

/**
 * A range as drawn, put in order, or closed to an end `minutes` after its start (availability takes 62 days,
 * planned work 366, a time entry a year): the services' window rules, which the JSON Schema cannot say.
 */
function ranged(value: Record<string, unknown>, mode: RangeMode, minutes: number): Record<string, unknown> {
  if (mode === 'as drawn') return value;
  const out = { ...value };
  for (const [start, end] of RANGES) {
    const a = out[start];
    const b = out[end];
    if (typeof a !== 'string' || typeof b !== 'string') continue;
    if (mode === 'ordered' && Date.parse(a) > Date.parse(b)) {
      out[start] = b;
      out[end] = a;
    }
    const later = Date.parse(a) + (a.length === 10 ? Math.floor(minutes / 1440) * DAY_MS : minutes * 60_000);
    if (mode === 'close' && later <= LAST_MS) out[end] = a.length === 10 ? new Date(later).toISOString().slice(0, 10) : new Date(later).toISOString();
  }
  return out;
}

function objectArbitrary(node: JsonSchema, root: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (node['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((node['required'] ?? []) as string[]);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of Object.entries(properties)) {
    const value = build(child, root, key, hints, depth + 1);
    if (required.has(key)) fields[key] = value;
    else if (depth <= 5) {
      const present = hints.presence?.(key) ?? 0.5;
      // Absent first, with cross-shrinking: a counterexample drops the optional properties it does not need.
      fields[key] = fc.oneof({ withCrossShrink: true }, { weight: Math.round((1 - present) * 12), arbitrary: fc.constant(ABSENT) }, { weight: Math.round(present * 12), arbitrary: value });
    }
  }
  const extra = node['additionalProperties'];
  const dictionary =
    extra && typeof extra === 'object' && Object.keys(extra as object).length > 0
      ? fc.dictionary(stringArbitrary({ ...((node['propertyNames'] ?? {}) as JsonSchema), minLength: 1 }, 'key', hints), build(extra as JsonSchema, root, 'value', hints, depth + 1), { maxKeys: 4 })
      : fc.constant({});
  const minProperties = num(node, 'minProperties') ?? 0;
  const range = fc.tuple(fc.constantFrom<RangeMode>('as drawn', 'ordered', 'close'), fc.integer({ min: 0, max: 60 * 1440 }));
  return fc
    .tuple(fc.record(fields), dictionary, range)
    .map(([record, more, [mode, minutes]]) => {
      const value: Record<string, unknown> = { ...(more as Record<string, unknown>) };
      for (const [key, v] of Object.entries(record)) if (v !== ABSENT) value[key] = v;
      return ranged(value, mode, minutes);
    })
    .filter((value) => Object.keys(value).length >= minProperties);
}

/** The arbitrary of a JSON Schema node (`root` holds its `$defs`); `name` is the property it is the value of. */
export function build(node: JsonSchema, root: JsonSchema, name: string, hints: Hints, depth = 0): fc.Arbitrary<unknown> {
  const component = typeof node['$ref'] === 'string' ? (node['$ref'] as string).replace(/^#\/\$defs\//, '') : undefined;
  const resolved = deref(node, root);
  const derived = () => derive(resolved, root, name, hints, depth);
  return hints.special?.(name, component, resolved, derived) ?? derived();
}

function derive(node: JsonSchema, root: JsonSchema, name: string, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if ('const' in node) return fc.constant(node['const']);
  if (Array.isArray(node['enum'])) return fc.constantFrom(...(node['enum'] as unknown[]));
  const options = (node['anyOf'] ?? node['oneOf']) as JsonSchema[] | undefined;
  if (options) return fc.oneof(...options.map((o) => build(o, root, name, hints, depth + 1)));
  const type = node['type'];
  if (Array.isArray(type)) return fc.oneof(...(type as string[]).map((t) => derive({ ...node, type: t }, root, name, hints, depth)));
  switch (type) {
    case 'string':
      return stringArbitrary(node, name, hints);
    case 'integer':
      return integerArbitrary(node);
    case 'number':
      return numberArbitrary(node);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(node, root, name, hints, depth);
    case 'object':
      return objectArbitrary(node, root, hints, depth);
    default:
      return node['properties'] ? objectArbitrary(node, root, hints, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** The arbitrary of a whole JSON Schema (its own root). */
export function arbitraryOf(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  return build(schema, schema, '', hints);
}
