import type { JsonSchema } from './json-schema.js';

/**
 * Example values derived from the JSON Schemas the documents declare (as `z.toJSONSchema` emits them from the
 * registry's zod schemas), so every operation's request and response example follows its schema and nothing is
 * written by hand per operation. Deterministic: no randomness, no clock; each example starts its counters afresh,
 * so an example does not depend on which were generated before it.
 *
 * Rules, in order: `const`, then the first of `examples`, `default` or `enum`; `anyOf`/`oneOf` take their first
 * branch that is not `null`; `allOf` merges its parts; objects get every property (a record, one entry whose key
 * follows `propertyNames`); arrays `max(1, minItems)` items; strings by `format` (timestamps and dates increase
 * through an example, so a start comes before its end), else the first candidate that satisfies `pattern` and the
 * length bounds: a UUID for an id, a URL, e-mail address or time zone for a property so named, the property's name
 * in words, a UUID, the shortest string the `pattern` matches; numbers 1 unless the bounds exclude it; booleans
 * `false`. A recursive reference ends where it recurs (an optional property is left out, an array is empty). A
 * schema no candidate satisfies throws, so a new kind of constraint cannot slip into the documents with an invalid
 * example.
 */
export function exampleOf(schema: JsonSchema, components: Readonly<Record<string, JsonSchema>>, name?: string): unknown {
  return new Examples(components).value(schema, name ?? null, []);
}

const BASE_INSTANT = Date.UTC(2025, 0, 6, 9, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RECURS = Symbol('recurs');

class Examples {
  private instants = 0;
  private dates = 0;
  private ids = 0;

  constructor(private readonly components: Readonly<Record<string, JsonSchema>>) {}

  value(schema: JsonSchema, name: string | null, refs: readonly string[]): unknown {
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      const id = ref.replace('#/components/schemas/', '');
      if (refs.includes(id)) return RECURS;
      const target = this.components[id];
      if (!target) throw new Error(`examples: unresolved reference ${ref}`);
      return this.value(target, name, [...refs, id]);
    }
    if ('const' in schema) return schema['const'];
    const examples = schema['examples'];
    if (Array.isArray(examples) && examples.length > 0) return examples[0];
    if ('default' in schema) return schema['default'];
    const enumeration = schema['enum'];
    if (Array.isArray(enumeration) && enumeration.length > 0) return enumeration[0];
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) {
        const branch = (branches as JsonSchema[]).find((b) => b['type'] !== 'null') ?? (branches[0] as JsonSchema);
        return this.value(branch, name, refs);
      }
    }
    const allOf = schema['allOf'];
    if (Array.isArray(allOf)) return Object.assign({}, ...(allOf as JsonSchema[]).map((part) => this.value(part, name, refs)));
    const types = [schema['type']].flat().filter((t) => t !== undefined);
    const type = types.find((t) => t !== 'null') ?? types[0];
    switch (type) {
      case 'object':
        return this.object(schema, refs);
      case 'array':
        return this.array(schema, name, refs);
      case 'string':
        return this.string(schema, name);
      case 'integer':
        return this.number(schema, 'integer');
      case 'number':
        return this.number(schema, 'number');
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        // `{}` (any value), or a schema that names only a property of another kind (e.g. `properties`).
        return schema['properties'] ? this.object(schema, refs) : null;
    }
  }

  private object(schema: JsonSchema, refs: readonly string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
    const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
    for (const [key, property] of Object.entries(properties)) {
      const value = this.value(property, key, refs);
      if (value === RECURS) {
        if (required.has(key)) throw new Error(`examples: required property ${key} recurs without end`);
        continue;
      }
      out[key] = value;
    }
    const additional = schema['additionalProperties'];
    if (Object.keys(properties).length === 0 && additional !== null && typeof additional === 'object' && Object.keys(additional).length > 0) {
      const keySchema = (schema['propertyNames'] ?? { type: 'string' }) as JsonSchema;
      const key = this.string({ minLength: 1, ...keySchema }, 'key');
      const value = this.value(additional as JsonSchema, key, refs);
      if (value !== RECURS) out[key] = value;
    }
    return out;
  }

  private array(schema: JsonSchema, name: string | null, refs: readonly string[]): unknown[] {
    const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
    const max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Infinity;
    const count = Math.min(Math.max(1, min), max);
    const items = (schema['items'] ?? {}) as JsonSchema;
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item = this.value(items, name, refs);
      if (item === RECURS) {
        if (min > 0) throw new Error('examples: a required array item recurs without end');
        return [];
      }
      out.push(item);
    }
    return out;
  }

  private number(schema: JsonSchema, type: 'integer' | 'number'): number {
    const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
    const step = type === 'integer' ? 1 : 0.5;
    const exclusiveMin = num('exclusiveMinimum');
    const exclusiveMax = num('exclusiveMaximum');
    const low = num('minimum') ?? (exclusiveMin === undefined ? undefined : exclusiveMin + step);
    const high = num('maximum') ?? (exclusiveMax === undefined ? undefined : exclusiveMax - step);
    const value = low !== undefined && low > 1 ? low : high !== undefined && high < 1 ? high : 1;
    const multipleOf = num('multipleOf');
    return multipleOf === undefined ? value : Math.ceil(value / multipleOf) * multipleOf;
  }

  private string(schema: JsonSchema, name: string | null): string {
    switch (schema['format']) {
      case 'date-time':
        return new Date(BASE_INSTANT + this.instants++ * HOUR).toISOString().replace('.000Z', 'Z');
      case 'date':
        return new Date(BASE_INSTANT + this.dates++ * DAY).toISOString().slice(0, 10);
      case 'email':
        return 'ada.lovelace@example.com';
      case 'uri':
      case 'url':
        return 'https://example.com/';
      case 'uuid':
        return this.uuid();
    }
    const pattern = typeof schema['pattern'] === 'string' ? new RegExp(schema['pattern'], 'u') : null;
    const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
    const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
    const fits = (text: string) => text.length >= minLength && text.length <= maxLength && (pattern === null || pattern.test(text));
    const words = name === null ? 'example' : `Example ${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()}`;
    // An identifier takes the next UUID only when it is the one chosen, so the counter stays dense.
    const id = exampleUuid(this.ids);
    const named = name === null ? undefined : NAMED.find(([pattern]) => pattern.test(name))?.[1];
    const candidates = [...(looksLikeId(name) ? [id] : []), ...(named ? [named] : []), words, id, ...(pattern ? [shortestMatch(pattern.source)] : []), 'x'.repeat(Math.max(1, minLength))];
    const found = candidates.find(fits);
    if (found === undefined) throw new Error(`examples: no example string fits ${JSON.stringify(schema)}`);
    if (found === id) this.ids++;
    return found;
  }

  /** A UUIDv7-shaped identifier, different for each use within one example. */
  private uuid(): string {
    return exampleUuid(this.ids++);
  }
}

/** The n-th UUIDv7-shaped example identifier. */
export function exampleUuid(n: number): string {
  return `0194a1b2-c3d4-7e5f-8a6b-${(0x1c2d3e4f5a60 + n).toString(16).padStart(12, '0')}`;
}

const looksLikeId = (name: string | null) => name !== null && /(^id|Id|Ids)$/.test(name);

/** Plain strings whose property name says what they hold (tried first; the schema still decides). */
const NAMED: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^u|U)rl$/, 'https://example.com/'],
  [/(^e|E)mail$/, 'ada.lovelace@example.com'],
  [/(^t|T)imeZone$/, 'Europe/Berlin'],
];

/**
 * The shortest string a regular expression matches, for the subset the registry's patterns use: literals and
 * escapes, character classes (ranges, negation, \d \w \s), groups (capturing or not), alternation (the first
 * branch) and the quantifiers ? * + {n} {n,} {n,m}. Anchors match the empty string.
 */
export function shortestMatch(source: string): string {
  let at = 0;
  const peek = () => source[at];
  const preferred = ['1', 'a', 'A', '0', '-', '_', '.', 'x'];
  const classes: Record<string, (c: string) => boolean> = {
    d: (c) => /[0-9]/.test(c),
    w: (c) => /[A-Za-z0-9_]/.test(c),
    s: (c) => /\s/.test(c),
  };
  const firstOf = (test: (c: string) => boolean) => {
    const candidate = [...preferred, ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i))].find(test);
    if (candidate === undefined) throw new Error(`shortestMatch: no character fits in /${source}/`);
    return candidate;
  };
  const escape = (): { test: (c: string) => boolean } => {
    const c = source[at++]!;
    const named = classes[c];
    if (named) return { test: named };
    const upper = classes[c.toLowerCase()];
    if (upper) return { test: (x) => !upper(x) };
    return { test: (x) => x === c };
  };
  const charClass = (): string => {
    const negated = peek() === '^';
    if (negated) at++;
    const tests: Array<(c: string) => boolean> = [];
    while (peek() !== ']') {
      if (at >= source.length) throw new Error(`shortestMatch: unterminated class in /${source}/`);
      let single: (c: string) => boolean;
      let low: string | null = null;
      if (peek() === '\\') {
        at++;
        single = escape().test;
      } else {
        low = source[at++]!;
        const literal = low;
        single = (x) => x === literal;
      }
      if (low !== null && peek() === '-' && source[at + 1] !== ']' && source[at + 1] !== undefined) {
        at++;
        const high = source[at++]!;
        const from = low;
        tests.push((x) => x >= from && x <= high);
      } else {
        tests.push(single);
      }
    }
    at++;
    return firstOf((c) => tests.some((t) => t(c)) !== negated);
  };
  const atom = (): string => {
    const c = source[at++]!;
    if (c === '(') {
      if (peek() === '?' && source[at + 1] === ':') at += 2;
      const inner = alternation();
      if (source[at++] !== ')') throw new Error(`shortestMatch: unbalanced group in /${source}/`);
      return inner;
    }
    if (c === '[') return charClass();
    if (c === '\\') return firstOf(escape().test);
    if (c === '.') return firstOf(() => true);
    if (c === '^' || c === '$') return '';
    return c;
  };
  const repeatMin = (): number => {
    const c = peek();
    if (c === '?' || c === '*') {
      at++;
      return 0;
    }
    if (c === '+') {
      at++;
      return 1;
    }
    if (c === '{') {
      const close = source.indexOf('}', at);
      const min = Number(source.slice(at + 1, close).split(',')[0]);
      at = close + 1;
      return min;
    }
    return 1;
  };
  const sequence = (): string => {
    let out = '';
    while (at < source.length && peek() !== '|' && peek() !== ')') {
      const text = atom();
      const times = repeatMin();
      if (peek() === '?') at++;
      out += text.repeat(times);
    }
    return out;
  };
  const alternation = (): string => {
    const first = sequence();
    while (peek() === '|') {
      at++;
      sequence();
    }
    return first;
  };
  const result = alternation();
  if (!new RegExp(source, 'u').test(result)) throw new Error(`shortestMatch: /${source}/ is outside the supported subset`);
  return result;
}
