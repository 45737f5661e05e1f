import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { claimIdempotencyKey, completeIdempotencyKey, type Database, type HeldIdempotencyKey, releaseIdempotencyKey } from '@workcell/db';
import { IDEMPOTENCY_RETENTION_HOURS, type Operation } from '@workcell/domain';
import { canonicalJson, type findV1Operation, IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from '@workcell/registry';
import { ProtocolError } from './problems.js';

/** Idempotency records are kept this long: at least 24 hours (plus a margin for clock skew between request and insert); the worker purges older ones. */
export const IDEMPOTENCY_RETENTION_MS = IDEMPOTENCY_RETENTION_HOURS * 3600 * 1000 + 5 * 60 * 1000;
/** How long a request may hold its key before another request with that key may take over. */
const LOCK_MS = 60_000;
/** Response headers worth replaying (the resource's identity and revision). */
const REPLAYED_HEADERS = ['location', 'etag'];

type V1Operation = NonNullable<ReturnType<typeof findV1Operation>>;

/**
 * `Idempotency-Key` on the registry's idempotent POSTs (v1.openapi.json documents the header and rules):
 * the first request with a key runs; a retry with the same key and the same payload gets the first
 * response again (status, body, Location/ETag) with `Idempotency-Replayed: true`; the same key with another
 * payload is 409 `idempotency_key_reused`; a retry while the first is still running is 409
 * `idempotency_request_in_progress`. Keys belong to the authenticating credential and the operation within
 * the workspace (the same key on two operations names two requests) and are kept 24 hours. A request that
 * fails frees its key, so the retry runs again.
 *
 * The handler runs holding the key (the request's operation carries it: `op.idempotencyKey`): its mutation stores the
 * procedure's result with the key in its own statement, so the key is completed exactly when the change commits
 * and a process that dies between the two cannot let a retry run the operation again. A replay runs the handler
 * with the stored result standing in for its procedure (invoke), so it renders the first response again: status,
 * body, Location and ETag. An operation whose mutation does not store its result is completed after its commit.
 *
 * runIdempotent runs an idempotent POST's handler (`run`, reading the request's operation when it runs) this way.
 */
export async function runIdempotent(
  database: Database,
  operation: V1Operation,
  request: FastifyRequest & { operation?: Operation },
  reply: FastifyReply,
  run: () => Promise<unknown>,
): Promise<unknown> {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (!operation.idempotent || typeof key !== 'string' || !request.operation) return run();
  const { auth } = request.operation;
  const fingerprint = createHash('sha256')
    .update(canonicalJson([operation.operationId, request.url, request.body ?? null]))
    .digest('hex');
  const scope = { workspaceId: auth.workspaceId, credentialId: auth.credential.id, operationId: operation.operationId, key };
  const claim = await claimIdempotencyKey(database, { ...scope, fingerprint, now: new Date(), lockMs: LOCK_MS, retentionMs: IDEMPOTENCY_RETENTION_MS });
  switch (claim.outcome) {
    case 'mismatch':
      throw new ProtocolError(409, 'idempotency_key_reused', 'this Idempotency-Key was used with a different request; reuse the original payload or a new key');
    case 'in_progress':
      throw new ProtocolError(409, 'idempotency_request_in_progress', 'a request with this Idempotency-Key is still being processed; retry later', [], { 'retry-after': '1' });
    case 'replay':
      reply.header('idempotency-replayed', 'true');
      if ('result' in claim) return holding(request, { workspaceId: auth.workspaceId, recordId: '', mode: 'replay', result: claim.result }, run);
      for (const [name, value] of Object.entries(claim.headers)) reply.header(name, value);
      reply.status(claim.status);
      return claim.body ?? undefined;
    case 'claimed': {
      const held: HeldIdempotencyKey = { workspaceId: auth.workspaceId, recordId: claim.recordId, mode: 'run' };
      let body: unknown;
      try {
        body = await holding(request, held, run);
        // The mutation completed the key with the result the handler rendered: nothing is left to store.
        const stored = held.storedByMutation;
        const completed = stored !== undefined && (stored === held.result || canonicalJson(stored) === canonicalJson(held.result ?? null));
        if (!completed) {
          const status = reply.statusCode !== 200 ? reply.statusCode : operation.success;
          const headers = Object.fromEntries(REPLAYED_HEADERS.map((h) => [h, reply.getHeader(h)]).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
          await completeIdempotencyKey(database, auth.workspaceId, claim.recordId, { result: held.result, status, body, headers });
        }
      } catch (error) {
        await releaseIdempotencyKey(database, auth.workspaceId, claim.recordId).catch(() => undefined);
        throw error;
      }
      reply.header('idempotency-replayed', 'false');
      return body;
    }
  }
}

/** Runs the handler holding the key: the request's operation carries it from here on, so its procedure and mutation see it. */
function holding(request: { operation?: Operation }, held: HeldIdempotencyKey, run: () => Promise<unknown>): Promise<unknown> {
  request.operation = { ...request.operation!, idempotencyKey: held };
  return run();
}

/**
 * A malformed `Idempotency-Key` on an idempotent POST is its own error, 400 `invalid_idempotency_key` (as
 * v1.openapi.json documents), not a generic validation failure: a client that generates keys must be able to
 * tell a broken key from a broken payload. Checked after authentication and before request validation.
 */
export function checkIdempotencyKey(operation: V1Operation, request: FastifyRequest): void {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (operation.idempotent && key !== undefined && !IdempotencyKey.safeParse(key).success) {
    throw new ProtocolError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 8-255 characters of [A-Za-z0-9._:-], starting with a letter or digit (a UUID is recommended)', [
      { pointer: '', parameter: 'Idempotency-Key', message: 'header parameter Idempotency-Key is malformed' },
    ]);
  }
}
