import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '@workcell/domain';

/**
 * Strong revisions (contract 4.4, 7.3): every readable resource sends `ETag: "<revision>"`, and the 14
 * `if-match` operations require `If-Match` with exactly one strong validator of that form.
 *   missing                         → 428 precondition_required
 *   weak (W/"…"), a list, `*`, junk → 400 invalid_precondition
 * A stale revision is detected by the domain's atomic `UPDATE … WHERE revision = $expected` and answers
 * 412 precondition_failed.
 */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

export function expectedRevisionFrom(header: string | string[] | undefined): number {
  if (header === undefined) throw new DomainError('precondition_required', 'this operation requires If-Match with the resource’s current ETag');
  const value = Array.isArray(header) ? header.join(',') : header.trim();
  const match = /^"([1-9]\d{0,9})"$/.exec(value);
  if (!match || Number(match[1]) > 2_147_483_647) {
    throw new DomainError('invalid_precondition', 'If-Match must be exactly one strong ETag of this resource, e.g. "3" (no W/, lists or *)');
  }
  return Number(match[1]);
}

/** Whether an If-None-Match header names this ETag (`*` names any; weak comparison, RFC 9110 13.1.2). */
export function noneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etag);
}

/**
 * v1: every single-resource response (`{ "data": { … } }`, 200 or 201) carries a strong ETag. Handlers of
 * revisioned resources set `"<revision>"` themselves (the validator If-Match compares); for every other resource
 * it is a digest of the exact representation, which changes whenever any byte of it does, so it is strong in
 * the sense of RFC 9110 8.8.1. A GET whose If-None-Match names the ETag answers 304 without a body.
 */
export function installRepresentationEtags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if ((reply.statusCode !== 200 && reply.statusCode !== 201) || typeof payload !== 'string' || !payload.startsWith('{"data":{')) return payload;
    let etag = reply.getHeader('etag');
    if (etag === undefined) {
      etag = `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
      void reply.header('etag', etag);
    }
    if (request.method === 'GET' && noneMatchHits(request.headers['if-none-match'], String(etag))) {
      void reply.code(304);
      return '';
    }
    return payload;
  });
}
