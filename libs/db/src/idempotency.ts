import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';

/** Deletes idempotency records whose retention has passed; returns how many went. */
export async function purgeExpiredIdempotencyRecords(database: Db, now: Date): Promise<number> {
  const { count } = await database.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}

export type IdempotencyClaim =
  | { readonly outcome: 'claimed'; readonly recordId: string }
  | { readonly outcome: 'replay'; readonly result: unknown }
  | { readonly outcome: 'replay'; readonly status: number; readonly body: unknown; readonly headers: Record<string, string> }
  | { readonly outcome: 'mismatch' }
  | { readonly outcome: 'in_progress' };

/**
 * The idempotency key a request holds while its operation runs (libs/http's runIdempotent puts it in the
 * request's operation, which hands it to every event the operation appends). `run`: the operation runs; its mutation stores its result with the key in the same
 * statement (outboxAppend, for an event that carries the result), and the procedure's result is noted here.
 * `replay`: the stored result stands in for the procedure (invoke returns it), so the handler renders the first
 * response again.
 */
export interface HeldIdempotencyKey {
  readonly workspaceId: string;
  readonly recordId: string;
  readonly mode: 'run' | 'replay';
  /** replay: the stored result; run: the procedure's, once it returned. */
  result?: unknown;
  /** run: whether a procedure has been invoked (an idempotent operation invokes exactly one). */
  invoked?: boolean;
  /** run: the result the mutation's statement stored with the key (it committed if the procedure returned). */
  storedByMutation?: unknown;
}

/** The UPDATE that completes the held key with `result`, when the operation holds one (in `run`) for this workspace. */
function heldKeyCompletion(held: HeldIdempotencyKey | null | undefined, workspaceId: string, result: unknown): Prisma.Sql | undefined {
  if (result === undefined || held?.mode !== 'run' || held.workspaceId !== workspaceId) return undefined;
  held.storedByMutation = result;
  return Prisma.sql`UPDATE idempotency_records SET state = 'completed', result = ${JSON.stringify(result)}::json, completed_by = 'mutation', locked_until = NULL, updated_at = clock_timestamp()
      WHERE workspace_id = ${workspaceId}::uuid AND id = ${held.recordId}::uuid AND state = 'in_progress'`;
}

/**
 * The CTE (after outboxAppend's `appended`) that completes the held key with `result` in the mutation's own
 * statement: the key commits completed exactly when the change commits. Empty without a key held in `run`, or for
 * another workspace's event.
 */
export function keyCompletion(held: HeldIdempotencyKey | null | undefined, workspaceId: string, result: unknown): Prisma.Sql {
  const update = heldKeyCompletion(held, workspaceId, result);
  return update ? Prisma.sql`, key_completed AS (${update})` : Prisma.empty;
}

/**
 * Completes the held key with `result` inside the caller's transaction, for a mutation that writes no outbox
 * event (an audited one): like keyCompletion, the key commits completed exactly when the change commits.
 */
export async function completeHeldKey(tx: Db, held: HeldIdempotencyKey | null | undefined, workspaceId: string, result: unknown): Promise<void> {
  const update = heldKeyCompletion(held, workspaceId, result);
  if (update) await tx.execute(update);
}

/**
 * Claims an idempotency key (scoped by workspace, credential and operation) for one request, atomically: the first request inserts an in-progress record
 * and runs; a later one with the same key gets the stored result or response (same payload), a mismatch (different
 * payload), or in_progress (the first is still running). A record whose holder died before its mutation committed
 * (lock expired, still in progress) is taken over, so a crashed request never blocks its key forever; one whose
 * mutation committed is completed already (keyCompletion) and is replayed, never run again.
 */
export async function claimIdempotencyKey(
  database: Db,
  input: { workspaceId: string; credentialId: string; operationId: string; key: string; fingerprint: string; now: Date; lockMs: number; retentionMs: number },
): Promise<IdempotencyClaim> {
  const { workspaceId, credentialId, operationId, key, fingerprint, now } = input;
  const lockedUntil = new Date(now.getTime() + input.lockMs);
  const expiresAt = new Date(now.getTime() + input.retentionMs);
  // Each statement straight through the pool (Database.rows/execute): this runs on every keyed write (issue 11).
  // The claim commits without waiting for its WAL flush (synchronous_commit off for its own transaction): the
  // mutation that completes the key commits after it with a flush, which covers the claim's record too, so a claim
  // a crash can lose is one whose mutation never committed, and its retry rightly runs again (docs/protocol.md).
  const inserted = await database.rows<{ id: string }>(Prisma.sql`
    INSERT INTO idempotency_records (workspace_id, credential_id, operation_id, key, request_fingerprint, state, locked_until, expires_at)
    SELECT ${workspaceId}::uuid, ${credentialId}::uuid, ${operationId}, ${key}, ${fingerprint}, 'in_progress', ${lockedUntil}::timestamptz, ${expiresAt}::timestamptz
    FROM set_config('synchronous_commit', 'off', true)
    ON CONFLICT (workspace_id, credential_id, operation_id, key) DO NOTHING
    RETURNING id::text AS id`);
  if (inserted[0]) return { outcome: 'claimed', recordId: inserted[0].id };
  const [existing] = await database.rows<{ id: string; fingerprint: string; state: string; status: number | null; body: unknown; headers: Record<string, string> | null; result: unknown }>(Prisma.sql`
      SELECT id::text AS id, request_fingerprint AS fingerprint, state::text AS state, response_status AS status, response_body AS body, response_headers AS headers, result
      FROM idempotency_records
      WHERE workspace_id = ${workspaceId}::uuid AND credential_id = ${credentialId}::uuid AND operation_id = ${operationId} AND key = ${key}`);
  if (!existing) return claimIdempotencyKey(database, input); // purged between the two statements
  if (existing.fingerprint !== fingerprint) return { outcome: 'mismatch' };
  if (existing.state === 'completed' && existing.result !== null) return { outcome: 'replay', result: existing.result };
  if (existing.state === 'completed' && existing.status !== null) {
    return { outcome: 'replay', status: existing.status, body: existing.body, headers: existing.headers ?? {} };
  }
  const takenOver = await database.execute(Prisma.sql`
    UPDATE idempotency_records SET locked_until = ${lockedUntil}::timestamptz, expires_at = ${expiresAt}::timestamptz, updated_at = ${now}::timestamptz
    WHERE workspace_id = ${workspaceId}::uuid AND id = ${existing.id}::uuid AND state = 'in_progress' AND locked_until < ${now}::timestamptz`);
  return takenOver === 1 ? { outcome: 'claimed', recordId: existing.id } : { outcome: 'in_progress' };
}

/**
 * Completes a key after its operation's commit, for an operation whose mutation did not store its result
 * (keyCompletion): its result when the handler invoked a procedure (a replay renders from it), and the response
 * as sent (a handler that invoked none is replayed from it).
 */
export async function completeIdempotencyKey(
  database: Db,
  workspaceId: string,
  recordId: string,
  outcome: { result: unknown; status: number; body: unknown; headers: Record<string, string> },
): Promise<void> {
  // No body is stored as JSON null (a replay answers without one).
  await database.execute(Prisma.sql`
    UPDATE idempotency_records
    SET state = 'completed', result = ${outcome.result === undefined ? null : JSON.stringify(outcome.result)}::json, completed_by = 'request',
      response_status = ${outcome.status}::int, response_body = ${JSON.stringify(outcome.body ?? null)}::jsonb,
      response_headers = ${JSON.stringify(outcome.headers)}::jsonb, locked_until = NULL, updated_at = ${new Date()}::timestamptz
    WHERE workspace_id = ${workspaceId}::uuid AND id = ${recordId}::uuid`);
}

/** The request failed without a response worth replaying: free the key so a retry runs again. */
export async function releaseIdempotencyKey(database: Db, workspaceId: string, recordId: string): Promise<void> {
  await database.execute(Prisma.sql`DELETE FROM idempotency_records WHERE workspace_id = ${workspaceId}::uuid AND id = ${recordId}::uuid AND state = 'in_progress'`);
}
