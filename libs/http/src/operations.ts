import { applyDecorators, Header, SetMetadata } from '@nestjs/common';
import { getV1Operation, v0Operations, type V1OperationId, v1Operations } from '@workcell/registry';

/**
 * Routes come only from the operation registry: a controller method names its operation, and at start-up the API app
 * mounts one compiled handler per registry operation (operation-routes.ts) with the method, path and success status of
 * its registry entry (raw @Get/@Post… are forbidden in the API apps by lint; Nest mounts only infrastructure routes).
 * Each API app compares what it mounted with its registry and answers every operation it does not implement yet with
 * 501 `not_implemented`.
 */

export type ApiGeneration = 'v0' | 'v1';
export const OPERATION_METADATA = 'workcell:operation';

/** `/v1/tasks/{id}` → `/v1/tasks/:id` (Fastify and Nest route syntax). */
export function routePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** Where a handler's own parameters are declared: `@Op()` and `@Input()` (index → what the compiled path passes). */
export const OPERATION_PARAMETERS = 'workcell:operation-parameters';

/** What the compiled request path passes for an operation parameter: the request's Operation, or its validated input. */
export type OperationParameter = 'op' | 'input';

/** A parameter decorator of the compiled request path (operation-routes.ts resolves it; Nest never sees it). */
export function operationParameter(kind: OperationParameter): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new Error(`@${kind}() belongs on a handler's parameter`);
    const declared = (Reflect.getMetadata(OPERATION_PARAMETERS, target, key) ?? {}) as Record<number, OperationParameter>;
    Reflect.defineMetadata(OPERATION_PARAMETERS, { ...declared, [index]: kind }, target, key);
  };
}

/**
 * Mounts a controller method as the v1 operation of that name, with the response headers its registry entry fixes:
 * `Cache-Control: private, no-store` where it declares one (an operation that reveals a secret, or the auth context).
 */
export function Operation(operationId: V1OperationId): MethodDecorator {
  const operation = getV1Operation(operationId);
  const noStore = operation.responseHeaders.includes('Cache-Control') ? [Header('Cache-Control', 'private, no-store')] : [];
  return applyDecorators(SetMetadata(OPERATION_METADATA, operationId), ...noStore);
}

/** Mounts a controller method as the v0 operation of that (generated) name, e.g. `legacyGetTeams`. */
export function LegacyOperation(operationId: string): MethodDecorator {
  if (!v0Operations.some((op) => op.operationId === operationId)) throw new Error(`unknown v0 operation ${operationId}`);
  return SetMetadata(OPERATION_METADATA, operationId);
}

export interface RegistryRoute {
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
}

export function registryRoutes(generation: ApiGeneration): RegistryRoute[] {
  const operations = generation === 'v1' ? v1Operations : v0Operations;
  return operations.map((op) => ({ operationId: op.operationId, method: op.method, url: routePath(op.path) }));
}

/**
 * The request body limits of the operations that declare their own (registry `bodyLimit`: the document writes, whose
 * bounded content would not fit the server's), by `METHOD url`; every other route keeps the server's limit.
 */
export function registryBodyLimits(generation: ApiGeneration): ReadonlyMap<string, number> {
  if (generation === 'v0') return new Map();
  return new Map(v1Operations.flatMap((op) => (op.bodyLimit === null ? [] : [[`${op.method} ${routePath(op.path)}`, op.bodyLimit] as const])));
}

export interface MountedRoute {
  readonly method: string;
  readonly url: string;
}

export interface RouteCoverage {
  readonly generation: ApiGeneration;
  readonly implemented: readonly string[];
  readonly notImplemented: readonly string[];
}

/**
 * Compares mounted routes with the registry. Throws when a mounted route is not a registry operation (or
 * an infrastructure route); returns which operations are implemented and which are not.
 */
export function compareWithRegistry(generation: ApiGeneration, mounted: readonly MountedRoute[], infrastructure: readonly string[]): RouteCoverage {
  const expected = new Map(registryRoutes(generation).map((r) => [`${r.method} ${r.url}`, r.operationId]));
  const implemented = new Set<string>();
  const strays: string[] = [];
  for (const route of mounted) {
    const key = `${route.method} ${route.url}`;
    if (route.method === 'HEAD' || infrastructure.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`))) continue;
    const operationId = expected.get(key);
    if (operationId === undefined) strays.push(key);
    else implemented.add(operationId);
  }
  if (strays.length > 0) {
    throw new Error(`${generation} mounts routes that are not registry operations: ${strays.join(', ')}`);
  }
  const all = [...expected.values()];
  return { generation, implemented: all.filter((id) => implemented.has(id)), notImplemented: all.filter((id) => !implemented.has(id)) };
}
