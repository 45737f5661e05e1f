import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const FORMATS_WITHOUT_PATTERN = new Set(['date-time', 'date', 'email', 'uri']);

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/** OpenAPI's integer format for an integer schema: int32 when its bounds fit, else int64 (zod's safe-integer default). */
function integerFormat(schema: JsonSchema): 'int32' | 'int64' {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : Number.MIN_SAFE_INTEGER;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Number.MAX_SAFE_INTEGER;
  return min >= INT32.min && max <= INT32.max ? 'int32' : 'int64';
}

const baseOptions = {
  target: 'draft-2020-12',
  io: 'input',
  unrepresentable: 'any',
  override: (ctx: { jsonSchema: JsonSchema }) => {
    // zod emits a long regex next to well-known formats; the format says it all.
    const format = ctx.jsonSchema['format'];
    if (typeof format === 'string' && FORMATS_WITHOUT_PATTERN.has(format)) delete ctx.jsonSchema['pattern'];
    if (ctx.jsonSchema['type'] === 'integer' && format === undefined) ctx.jsonSchema['format'] = integerFormat(ctx.jsonSchema);
  },
} as const;

const componentRef = (id: string) => `#/components/schemas/${id}`;

/** The component id of a schema registered with `.meta({ id })`, if any. */
export function componentId(schema: z.ZodType): string | undefined {
  const meta = z.globalRegistry.get(schema);
  return typeof meta?.id === 'string' ? meta.id : undefined;
}

function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  void _s;
  void _i;
  return rest;
}

/** Rewrite `#/$defs/X` to `#/components/schemas/X` everywhere. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

/**
 * JSON Schema of a zod schema for use inside an OpenAPI document: registered
 * components become `$ref`s, everything else is inlined.
 */
export function toSchema(schema: z.ZodType): JsonSchema {
  const id = componentId(schema);
  if (id) return { $ref: componentRef(id) };
  const raw = stripDialect(z.toJSONSchema(schema, baseOptions) as JsonSchema);
  delete raw['$defs'];
  return rewriteRefs(raw) as JsonSchema;
}

/** Every registered component, converted once (refs between them point to components). */
export function allComponents(): Record<string, JsonSchema> {
  const converted = z.toJSONSchema(z.globalRegistry, { ...baseOptions, uri: componentRef }) as {
    schemas: Record<string, JsonSchema>;
  };
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(converted.schemas)) out[id] = stripDialect(schema);
  return out;
}

/** Collect `#/components/<kind>/<name>` refs reachable from `root` (following schema refs transitively). */
export function reachableSchemas(root: unknown, components: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          const name = v.slice('#/components/schemas/'.length);
          if (!seen.has(name)) {
            seen.add(name);
            const target = components[name];
            if (!target) throw new Error(`Unresolved schema reference ${v}`);
            stack.push(target);
          }
        } else {
          stack.push(v);
        }
      }
    }
  }
  return seen;
}

/** Unwrap `.optional()`; report whether the value may be omitted. */
export function unwrapOptional(schema: z.ZodType): { schema: z.ZodType; optional: boolean } {
  if (schema instanceof z.ZodOptional) return { schema: schema.unwrap() as z.ZodType, optional: true };
  return { schema, optional: false };
}
