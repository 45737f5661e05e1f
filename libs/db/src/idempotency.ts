import { Prisma } from './generated/prisma/client.js';
import type { Database } from './database.js';

/** Deletes idempotency records whose retention has passed; returns how many went. */
export async function purgeExpiredIdempotencyRecords(database: Database, now: Date): Promise<number> {
  const { count } = await database.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}

export type IdempotencyClaim =
  | { readonly outcome: 'claimed'; readonly recordId: string }
  | { readonly outcome: 'replay'; readonly status: number; readonly body: unknown; readonly headers: Record<string, string> }
  | { readonly outcome: 'mismatch' }
  | { readonly outcome: 'in_progress' };

/**
 * Claims an idempotency key (scoped by workspace, credential and operation) for one request, atomically: the first request inserts an in-progress record
 * and runs; a later one with the same key gets the stored response (same payload), a mismatch (different
 * payload), or in_progress (the first is still running). A record whose holder died (lock expired) is
 * taken over, so a crashed request never blocks its key forever.
 */
export async function claimIdempotencyKey(
  database: Database,
  input: { workspaceId: string; credentialId: string; operationId: string; key: string; fingerprint: string; now: Date; lockMs: number; retentionMs: number },
): Promise<IdempotencyClaim> {
  const { workspaceId, credentialId, operationId, key, fingerprint, now } = input;
  const lockedUntil = new Date(now.getTime() + input.lockMs);
  const expiresAt = new Date(now.getTime() + input.retentionMs);
  // Each statement straight through the pool (Database.statement): this runs on every keyed write (issue 11).
  const inserted = await database.statement<{ id: string }>(Prisma.sql`
    INSERT INTO idempotency_records (workspace_id, credential_id, operation_id, key, request_fingerprint, state, locked_until, expires_at)
    VALUES (${workspaceId}::uuid, ${credentialId}::uuid, ${operationId}, ${key}, ${fingerprint}, 'in_progress', ${lockedUntil}::timestamptz, ${expiresAt}::timestamptz)
    ON CONFLICT (workspace_id, credential_id, operation_id, key) DO NOTHING
    RETURNING id::text AS id`);
  if (inserted.rows[0]) return { outcome: 'claimed', recordId: inserted.rows[0].id };
  const [existing] = (
    await database.statement<{ id: string; fingerprint: string; state: string; status: number | null; body: unknown; headers: Record<string, string> | null }>(Prisma.sql`
      SELECT id::text AS id, request_fingerprint AS fingerprint, state::text AS state, response_status AS status, response_body AS body, response_headers AS headers
      FROM idempotency_records
      WHERE workspace_id = ${workspaceId}::uuid AND credential_id = ${credentialId}::uuid AND operation_id = ${operationId} AND key = ${key}`)
  ).rows;
  if (!existing) return claimIdempotencyKey(database, input); // purged between the two statements
  if (existing.fingerprint !== fingerprint) return { outcome: 'mismatch' };
  if (existing.state === 'completed' && existing.status !== null) {
    return { outcome: 'replay', status: existing.status, body: existing.body, headers: existing.headers ?? {} };
  }
  const takenOver = await database.statement(Prisma.sql`
    UPDATE idempotency_records SET locked_until = ${lockedUntil}::timestamptz, expires_at = ${expiresAt}::timestamptz, updated_at = ${now}::timestamptz
    WHERE workspace_id = ${workspaceId}::uuid AND id = ${existing.id}::uuid AND state = 'in_progress' AND locked_until < ${now}::timestamptz`);
  return takenOver.count === 1 ? { outcome: 'claimed', recordId: existing.id } : { outcome: 'in_progress' };
}

export async function completeIdempotencyKey(
  database: Database,
  workspaceId: string,
  recordId: string,
  response: { status: number; body: unknown; headers: Record<string, string> },
): Promise<void> {
  // No body is stored as JSON null (a replay answers without one).
  await database.statement(Prisma.sql`
    UPDATE idempotency_records
    SET state = 'completed', response_status = ${response.status}::int, response_body = ${JSON.stringify(response.body ?? null)}::jsonb,
      response_headers = ${JSON.stringify(response.headers)}::jsonb, locked_until = NULL, updated_at = ${new Date()}::timestamptz
    WHERE workspace_id = ${workspaceId}::uuid AND id = ${recordId}::uuid`);
}

/** The request failed without a response worth replaying: free the key so a retry runs again. */
export async function releaseIdempotencyKey(database: Database, workspaceId: string, recordId: string): Promise<void> {
  await database.prisma.idempotencyRecord.deleteMany({ where: { workspaceId, id: recordId, state: 'in_progress' } });
}
