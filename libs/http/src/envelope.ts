import type { FastifyReply } from 'fastify';
import type { Versioned } from '@workcell/domain';
import { etagOf } from './preconditions.js';

/**
 * The v1 resource envelope (documented in v1.openapi.json): a single resource as `{ data }`, a list as
 * `{ data, meta: { limit, nextCursor }, links: { next } }`, where `links.next` is the relative URL of the
 * next page (the same path and filters, with the cursor) and both are null on the last page.
 */
export function single<T>(data: T): { data: T } {
  return { data };
}

/**
 * A single revisioned resource: `{ data }` with its stored revision as the strong `ETag` (the validator If-Match
 * compares). The one way a v1 handler sends a revision; resources without one get a representation digest
 * (installRepresentationEtags).
 */
export function versioned<T>(reply: FastifyReply, result: Versioned<T>): { data: T } {
  void reply.header('etag', etagOf(result.revision));
  return single(result.resource);
}

/** versioned() for a view that carries its own `revision` (tasks, projects). */
export function revisioned<T extends { readonly revision: number | string }>(reply: FastifyReply, resource: T): { data: T } {
  return versioned(reply, { resource, revision: Number(resource.revision) });
}

export function list<T>(
  items: readonly T[],
  page: { limit: number; nextCursor: string | null },
  request: { url: string },
): { data: readonly T[]; meta: { limit: number; nextCursor: string | null }; links: { next: string | null } } {
  let next: string | null = null;
  if (page.nextCursor !== null) {
    const url = new URL(request.url, 'http://relative.invalid');
    url.searchParams.set('cursor', page.nextCursor);
    url.searchParams.set('limit', String(page.limit));
    next = `${url.pathname}${url.search}`;
  }
  return { data: items, meta: { limit: page.limit, nextCursor: page.nextCursor }, links: { next } };
}
