import type { FastifyReply } from 'fastify';
import type { Versioned } from '@workcell/domain';
import { etagOf, single } from '@workcell/http';

/** A single-resource response: `{ data }` with the resource's strong revision in `ETag`. */
export function versionedResponse<T>(reply: FastifyReply, result: Versioned<T>): { data: T } {
  reply.header('etag', etagOf(result.revision));
  return single(result.resource);
}
