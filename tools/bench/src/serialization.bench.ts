import fastJsonStringify from 'fast-json-stringify';
import { openApiDocument } from '@workcell/registry';
import { compare, type Comparison } from './ratio.js';

/** A JSON Schema as the OpenAPI document holds it. */
type Schema = Record<string, unknown>;

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  readonly components: Schema;
}

/** The JSON Schema of an operation's success answer in the published v1 document, with the components it refers to. */
export function successSchemaOf(operationId: string): Schema {
  const document = JSON.parse(openApiDocument('v1').text) as OpenApiDocument;
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      if (operation.operationId !== operationId) continue;
      const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
      const schema = success?.[1].content?.['application/json']?.schema;
      if (!schema) throw new Error(`${operationId} answers no JSON`);
      // fast-json-stringify resolves `#/components/...` against the schema's own root.
      return { ...schema, components: document.components };
    }
  }
  throw new Error(`${operationId} is not in the v1 document`);
}

export interface SerializationComparison extends Comparison {
  /** Whether the compiled serializer wrote the very bytes JSON.stringify wrote. */
  readonly identical: boolean;
}

/**
 * Issue 28 asked for response serialization compiled from the registry's response schemas (fast-json-stringify, as
 * Fastify does for a route's `response` schema). Measures it against `JSON.stringify` on a real answer `body` (the
 * parsed JSON of one listTasks page), interleaved in this process; ratio = compiled / JSON.stringify, per
 * `batch` serializations.
 */
export async function measureCompiledSerialization(operationId: string, body: unknown, rounds: number, batch = 50): Promise<SerializationComparison> {
  const compiled = fastJsonStringify(successSchemaOf(operationId));
  const identical = compiled(body) === JSON.stringify(body);
  const times = (serialize: (value: unknown) => string) => async () => {
    for (let i = 0; i < batch; i++) serialize(body);
  };
  const result = await compare(
    times((value) => JSON.stringify(value)),
    times((value) => compiled(value)),
    rounds,
    Math.max(5, Math.floor(rounds / 10)),
  );
  return { ...result, baselineMs: result.baselineMs / batch, candidateMs: result.candidateMs / batch, identical };
}
