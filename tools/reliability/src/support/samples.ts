import { z } from 'zod';

/**
 * Valid-looking values generated from an operation's zod schemas (through their JSON Schema, which names types,
 * formats, bounds and enums uniformly), so hostile variations can change one field of an otherwise valid
 * request and reach as deep into the service as a real client would. Ids come from a resolver that knows the
 * resources made so far.
 */

export type JsonSchema = Record<string, unknown>;

/** Resolves an id-valued property (`projectId`, `tagIds[]`, `parentId`) to an existing id, if any. */
export type IdResolver = (property: string) => string | undefined;

const cache = new WeakMap<z.ZodType, JsonSchema | null>();

/** The input JSON Schema of a zod schema (null when zod cannot represent it). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema | null {
  if (!cache.has(schema)) {
    let converted: JsonSchema | null;
    try {
      converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
    } catch {
      converted = null;
    }
    cache.set(schema, converted);
  }
  return cache.get(schema)!;
}

/** Follows a local `$ref` (`#/$defs/X` or `#`) against the root. */
export function deref(node: JsonSchema, root: JsonSchema): JsonSchema {
  let current = node;
  for (let i = 0; i < 10 && typeof current['$ref'] === 'string'; i++) {
    const ref = current['$ref'] as string;
    if (ref === '#') current = root;
    else {
      const name = ref.replace(/^#\/\$defs\//, '');
      current = ((root['$defs'] as Record<string, JsonSchema> | undefined)?.[name] ?? {}) as JsonSchema;
    }
  }
  return current;
}

/** The non-null alternatives of a union node, or the node itself. */
function alternatives(node: JsonSchema): JsonSchema[] {
  const options = (node['anyOf'] ?? node['oneOf']) as JsonSchema[] | undefined;
  if (!options) return [node];
  return options.filter((o) => o['type'] !== 'null');
}

export type FieldKind = 'string' | 'date' | 'date-time' | 'id' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'unknown';

/** What kind of value a property holds, for choosing hostile replacements. */
export function fieldKind(node: JsonSchema, root: JsonSchema, name = ''): FieldKind {
  const n = alternatives(deref(node, root))[0] ?? {};
  const resolved = deref(n, root);
  const type = resolved['type'];
  const format = resolved['format'];
  if (type === 'string') {
    if (format === 'uuid' || /(^id$|Id$)/.test(name)) return 'id';
    if (format === 'date') return 'date';
    if (format === 'date-time') return 'date-time';
    if (/(Date|On|At|^from$|^to$|Since|From|To)$/.test(name) && typeof resolved['pattern'] === 'string') return 'date';
    return 'string';
  }
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'array') return 'array';
  if (type === 'object' || resolved['properties']) return 'object';
  return 'unknown';
}

const STRING_CANDIDATES = [
  'Sample',
  'sample',
  'DE',
  'de',
  '10.00',
  '10',
  '1',
  'EUR',
  '#336699',
  'PT1H',
  '09:00',
  'FREQ=WEEKLY',
  '2026-03-02',
  '2026-03-02T09:00:00Z',
  'a.b',
  'en',
  'Europe/Berlin',
  'sample-key',
  'text/plain',
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
];

function sampleString(node: JsonSchema, name: string, ids: IdResolver): string {
  const format = node['format'];
  if (Array.isArray(node['enum'])) return String(node['enum'][0]);
  if (typeof node['const'] === 'string') return node['const'];
  if (format === 'uuid' || /(^id$|Id$)/.test(name)) return ids(name) ?? '00000000-0000-4000-8000-000000000000';
  // The end of a range (`endsAt`, `endsOn`) lies after its start, which the services check across the two fields.
  const end = /^ends(At|On)$/.test(name);
  if (format === 'date') return end ? '2026-03-03' : '2026-03-02';
  if (format === 'date-time') return end ? '2026-03-02T10:00:00Z' : '2026-03-02T09:00:00Z';
  if (format === 'email') return `sample-${Math.random().toString(36).slice(2, 8)}@example.test`;
  if (format === 'uri' || format === 'url' || /url$/i.test(name)) return 'https://example.test/hook';
  const min = typeof node['minLength'] === 'number' ? node['minLength'] : 0;
  const max = typeof node['maxLength'] === 'number' ? node['maxLength'] : Infinity;
  const pattern = typeof node['pattern'] === 'string' ? safeRegExp(node['pattern']) : undefined;
  const fits = (s: string) => s.length >= min && s.length <= max && (!pattern || pattern.test(s));
  // Event-type filters take `*` (every event type) besides catalogued names.
  if (/eventType/.test(name)) return '*';
  // An IANA time-zone name (task recurrences, settings): the schema refines it, which JSON Schema cannot say.
  if (/timeZone$/i.test(name)) return 'Europe/Berlin';
  const named = `Sample ${name || 'text'} ${Math.random().toString(36).slice(2, 6)}`;
  // A key-like pattern (`^[a-z][a-z0-9_]{0,63}$`: custom-field keys, unique per workspace) gets a fresh value too.
  const keyLike = `sample_${Math.random().toString(36).slice(2, 8)}`;
  for (const candidate of [named, keyLike, ...STRING_CANDIDATES]) if (fits(candidate)) return candidate;
  return 'x'.repeat(Math.max(min, 1));
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

function sampleNumber(node: JsonSchema, integer: boolean): number {
  const min = typeof node['minimum'] === 'number' ? node['minimum'] : typeof node['exclusiveMinimum'] === 'number' ? node['exclusiveMinimum'] + (integer ? 1 : 0.5) : 1;
  const max = typeof node['maximum'] === 'number' ? node['maximum'] : typeof node['exclusiveMaximum'] === 'number' ? node['exclusiveMaximum'] - 1 : Infinity;
  const value = Math.min(Math.max(min, 1), max);
  return integer ? Math.ceil(value) : value;
}

/**
 * A value valid for the schema as far as its JSON Schema can tell (cross-field rules are not known).
 * `full`: also optional properties (richer bodies for hostile variation); otherwise only required ones.
 */
export function sampleValue(node: JsonSchema, root: JsonSchema, ids: IdResolver, name = '', full = true, depth = 0): unknown {
  const resolved = deref(node, root);
  if (depth > 6) return undefined;
  if ('const' in resolved) return resolved['const'];
  if (Array.isArray(resolved['enum'])) return resolved['enum'][0];
  const options = alternatives(resolved);
  if (options.length > 1 || options[0] !== resolved) return sampleValue(options[0] ?? {}, root, ids, name, full, depth + 1);
  if ('default' in resolved && !full) return resolved['default'];
  const type = Array.isArray(resolved['type']) ? (resolved['type'] as string[]).find((t) => t !== 'null') : resolved['type'];
  switch (type) {
    case 'string':
      return sampleString(resolved, name, ids);
    case 'integer':
      return sampleNumber(resolved, true);
    case 'number':
      return sampleNumber(resolved, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = (resolved['items'] ?? {}) as JsonSchema;
      const min = typeof resolved['minItems'] === 'number' ? resolved['minItems'] : 0;
      const singular = name.replace(/s$/, '');
      if (min === 0 && !full) return [];
      const item = sampleValue(items, root, ids, singular, full, depth + 1);
      return item === undefined ? [] : Array.from({ length: Math.max(min, 1) }, () => item);
    }
    default: {
      const properties = (resolved['properties'] ?? {}) as Record<string, JsonSchema>;
      // An automation's trigger and steps name catalogued event types and actions (checked by the service, not the schema).
      if ('eventType' in properties && 'conditions' in properties) return { eventType: 'task.created', ...(full ? { conditions: { 'task.title': 'Sample trigger' } } : {}) };
      if ('actionId' in properties && 'input' in properties) return { actionId: 'flow.delay', input: { seconds: 60 } };
      const required = new Set((resolved['required'] ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(properties)) {
        if (!required.has(key) && !full) continue;
        const value = sampleValue(child, root, ids, key, full, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
  }
}

/** A valid-looking value for a zod schema (undefined when it has none). */
export function sampleFor(schema: z.ZodType | null, ids: IdResolver, full = true): unknown {
  if (!schema) return undefined;
  const root = jsonSchemaOf(schema);
  return root ? sampleValue(root, root, ids, '', full) : undefined;
}

/**
 * The top-level properties of an object schema with their kinds; `free`: a string that takes any text (no enum,
 * pattern or format), where a marker can go without making the request invalid.
 */
export function fieldsOf(schema: z.ZodType | null): { name: string; kind: FieldKind; required: boolean; free: boolean }[] {
  if (!schema) return [];
  const root = jsonSchemaOf(schema);
  if (!root) return [];
  const node = deref(alternatives(deref(root, root))[0] ?? {}, root);
  const properties = (node['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((node['required'] ?? []) as string[]);
  const free = (child: JsonSchema): boolean => {
    const n = deref(alternatives(deref(child, root))[0] ?? {}, root);
    return n['type'] === 'string' && !('enum' in n) && !('const' in n) && !('pattern' in n) && !('format' in n);
  };
  return Object.entries(properties).map(([name, child]) => ({ name, kind: fieldKind(child, root, name), required: required.has(name), free: free(child) }));
}
