import type { FastifyRequest } from 'fastify';
import { canonicalId } from '@workcell/domain';
import { LegacyId, ResourceId, v0Operations, v1Operations } from '@workcell/registry';
import { type ApiGeneration, routePath } from './operations.js';

/**
 * The path parameters that name a resource (the registry's `ResourceId`, v0 `LegacyId`: not a calendar token or a
 * version number), by `METHOD route` as the router mounts them.
 */
export function resourceIdParameters(generation: ApiGeneration): ReadonlyMap<string, readonly string[]> {
  const byRoute = new Map<string, string[]>();
  for (const op of generation === 'v1' ? v1Operations : v0Operations) {
    const ids = Object.entries(op.request.path?.shape ?? {}).flatMap(([name, schema]) => (schema === ResourceId || schema === LegacyId ? [name] : []));
    if (ids.length > 0) byRoute.set(`${op.method} ${routePath(op.path)}`, ids);
  }
  return byRoute;
}

/**
 * Rewrites the request's resource-id path parameters to their canonical spelling (canonicalId: a UUID in lower
 * case), once, before anything reads them: the rate limit's key (`/tasks/ABC…` and `/tasks/abc…` are one v0 budget),
 * the gate, validation and the handler, so procedures, audit entries and events see one id per resource. An
 * `onRequest` hook installed ahead of the rate limit's.
 */
export function installCanonicalResourceIds(fastify: { addHook(name: 'onRequest', hook: (request: FastifyRequest) => Promise<void>): unknown }, generation: ApiGeneration): void {
  const byRoute = resourceIdParameters(generation);
  fastify.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (route === undefined) return;
    const names = byRoute.get(`${request.method === 'HEAD' ? 'GET' : request.method} ${route}`);
    if (names === undefined) return;
    const params = request.params as Record<string, unknown>;
    for (const name of names) {
      const value = params[name];
      if (typeof value === 'string') params[name] = canonicalId(value);
    }
  });
}
