import type { FastifyReply, FastifyRequest } from 'fastify';
import { v0Operations, v1Operations } from '@workcell/registry';
import type { ApiGeneration } from './operations.js';
import { ProtocolError } from './problems.js';
import { decodedPath } from './rate-limit.js';

type PathMethods = { readonly pattern: RegExp; readonly methods: ReadonlySet<string> };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each registry path template of a generation as a pattern over decoded paths, with the methods it serves. */
function pathTable(generation: ApiGeneration): PathMethods[] {
  const byPath = new Map<string, Set<string>>();
  for (const op of generation === 'v1' ? v1Operations : v0Operations) {
    const methods = byPath.get(op.path) ?? new Set<string>();
    methods.add(op.method);
    byPath.set(op.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    // A parameter is one non-empty segment (part), as in the router.
    pattern: new RegExp(
      `^${path
        .split(/\{\w+\}/)
        .map(escape)
        .join('[^/]+')}$`,
    ),
    methods,
  }));
}

const tables: Partial<Record<ApiGeneration, PathMethods[]>> = {};

/**
 * The methods the registry serves on this request path (decoded; HEAD wherever GET is, as the router answers
 * it), sorted; empty when no operation has this path.
 */
export function allowedMethods(generation: ApiGeneration, url: string): string[] {
  const table = (tables[generation] ??= pathTable(generation));
  const path = decodedPath(url).join('/');
  const methods = new Set<string>();
  for (const entry of table) if (entry.pattern.test(path)) for (const method of entry.methods) methods.add(method);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * A known path with a method the registry does not serve there answers 405 `method_not_allowed` with `Allow`
 * (RFC 9110 15.5.6) in the generation's error shape, instead of 404. Like 404, it answers before
 * authentication: both only restate the published OpenAPI document (a caller without a token learns nothing
 * it could not read there), and the request is still rate-limited by its address.
 */
export function installMethodNotAllowed(fastify: { addHook(name: 'onRequest', hook: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): unknown }, generation: ApiGeneration): void {
  fastify.addHook('onRequest', async (request) => {
    if (request.routeOptions.url !== undefined) return;
    const allow = allowedMethods(generation, request.url);
    if (allow.length === 0 || allow.includes(request.method)) return;
    throw new ProtocolError(405, 'method_not_allowed', `${request.method} is not allowed on this path; allowed: ${allow.join(', ')}`, [], { allow: allow.join(', ') });
  });
}
