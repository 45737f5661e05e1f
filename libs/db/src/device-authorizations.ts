import { recordAudit, type AuditActor } from './audit.js';
import type { Db } from './database.js';
import { inTransaction } from './transactions.js';

/**
 * Device logins of the CLI (RFC 8628; docs/authentication.md "Device login"). A global table like sessions: every
 * statement is keyed by a code's hash (or the row's id). Only the hashes of the device code and the user code are
 * stored; the person's choices are kept at approval and the token is minted when the CLI redeems it.
 */

/** What the approval page shows of a pending device login. */
export interface PendingDeviceLogin {
  readonly id: string;
  readonly clientId: string;
  readonly requestedScopes: readonly string[];
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** A device login as its redemption sees it, its row locked (FOR UPDATE) by the redeeming transaction. */
export interface LockedDeviceLogin {
  readonly id: string;
  readonly clientId: string;
  readonly expiresAt: Date;
  readonly pollIntervalSeconds: number;
  readonly lastPolledAt: Date | null;
  readonly userId: string | null;
  readonly workspaceId: string | null;
  readonly tokenName: string | null;
  readonly scopes: readonly string[] | null;
  readonly tokenExpiresAt: Date | null;
  readonly approvedAt: Date | null;
  readonly deniedAt: Date | null;
  readonly redeemedAt: Date | null;
}

/** Stores a new device login; false when its user code's hash is taken (the caller draws another code). */
export async function createDeviceAuthorization(
  database: Db,
  input: {
    deviceCodeHash: Uint8Array<ArrayBuffer>;
    userCodeHash: Uint8Array<ArrayBuffer>;
    clientId: string;
    requestedScopes: readonly string[];
    now: Date;
    expiresAt: Date;
    pollIntervalSeconds: number;
  },
): Promise<boolean> {
  const rows = await database.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO device_authorizations (device_code_hash, user_code_hash, client_id, requested_scopes, created_at, expires_at, poll_interval_seconds)
    VALUES (${input.deviceCodeHash}, ${input.userCodeHash}, ${input.clientId}, ${[...input.requestedScopes]}::text[], ${input.now}, ${input.expiresAt}, ${input.pollIntervalSeconds})
    ON CONFLICT DO NOTHING
    RETURNING id::text`;
  return rows.length === 1;
}

/** The device login this user code names while it waits for a decision (live, neither approved nor denied), or null. */
export async function pendingDeviceAuthorization(database: Db, userCodeHash: Uint8Array<ArrayBuffer>, now: Date): Promise<PendingDeviceLogin | null> {
  const row = await database.prisma.deviceAuthorization.findFirst({
    where: { userCodeHash, expiresAt: { gt: now }, approvedAt: null, deniedAt: null },
    select: { id: true, clientId: true, requestedScopes: true, createdAt: true, expiresAt: true },
  });
  return row;
}

/**
 * The person's approval, as a compare-and-set on a live undecided login (exactly one decision wins), audited
 * `device_login.approved` in the workspace the token will belong to. False when the code is no longer pending.
 */
export async function approveDeviceAuthorization(
  database: Db,
  input: { userCodeHash: Uint8Array<ArrayBuffer>; userId: string; workspaceId: string; tokenName: string; scopes: readonly string[]; tokenExpiresAt: Date; now: Date; actor: AuditActor },
): Promise<boolean> {
  return inTransaction(database, async (tx) => {
    const rows = await tx.prisma.$queryRaw<{ id: string; client_id: string }[]>`
      UPDATE device_authorizations
      SET user_id = ${input.userId}::uuid, approved_workspace_id = ${input.workspaceId}::uuid, token_name = ${input.tokenName}, scopes = ${[...input.scopes]}::text[],
          token_expires_at = ${input.tokenExpiresAt}, approved_at = ${input.now}
      WHERE user_code_hash = ${input.userCodeHash} AND expires_at > ${input.now} AND approved_at IS NULL AND denied_at IS NULL
      RETURNING id::text, client_id`;
    const row = rows[0];
    if (!row) return false;
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: 'device_login.approved',
      targetType: 'device_login',
      targetId: row.id,
      metadata: { clientId: row.client_id, tokenName: input.tokenName, scopes: [...input.scopes], tokenExpiresAt: input.tokenExpiresAt.toISOString() },
      occurredAt: input.now,
    });
    return true;
  });
}

/** The person's refusal (compare-and-set on a live undecided login). False when the code is no longer pending. */
export async function denyDeviceAuthorization(database: Db, input: { userCodeHash: Uint8Array<ArrayBuffer>; userId: string; now: Date }): Promise<boolean> {
  const count = await database.prisma.$executeRaw`
    UPDATE device_authorizations SET user_id = ${input.userId}::uuid, denied_at = ${input.now}
    WHERE user_code_hash = ${input.userCodeHash} AND expires_at > ${input.now} AND approved_at IS NULL AND denied_at IS NULL`;
  return count === 1;
}

/** The device login of this device code, locked for the redeeming transaction (polls of one device run one at a time). */
export async function lockDeviceAuthorization(tx: Db, deviceCodeHash: Uint8Array<ArrayBuffer>): Promise<LockedDeviceLogin | null> {
  const rows = await tx.prisma.$queryRaw<
    {
      id: string;
      client_id: string;
      expires_at: Date;
      poll_interval_seconds: number;
      last_polled_at: Date | null;
      user_id: string | null;
      approved_workspace_id: string | null;
      token_name: string | null;
      scopes: string[];
      token_expires_at: Date | null;
      approved_at: Date | null;
      denied_at: Date | null;
      redeemed_at: Date | null;
    }[]
  >`
    SELECT id::text, client_id, expires_at, poll_interval_seconds, last_polled_at, user_id::text, approved_workspace_id::text, token_name, scopes,
           token_expires_at, approved_at, denied_at, redeemed_at
    FROM device_authorizations WHERE device_code_hash = ${deviceCodeHash} FOR UPDATE`;
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    clientId: r.client_id,
    expiresAt: r.expires_at,
    pollIntervalSeconds: r.poll_interval_seconds,
    lastPolledAt: r.last_polled_at,
    userId: r.user_id,
    workspaceId: r.approved_workspace_id,
    tokenName: r.token_name,
    scopes: r.scopes,
    tokenExpiresAt: r.token_expires_at,
    approvedAt: r.approved_at,
    deniedAt: r.denied_at,
    redeemedAt: r.redeemed_at,
  };
}

/** Records a poll: when it came and the interval the device must keep from now on (raised by slow_down). */
export async function recordDevicePoll(tx: Db, id: string, now: Date, pollIntervalSeconds: number): Promise<void> {
  await tx.prisma.$executeRaw`UPDATE device_authorizations SET last_polled_at = ${now}, poll_interval_seconds = ${pollIntervalSeconds} WHERE id = ${id}::uuid`;
}

/** The approval redeemed for the credential minted in the same transaction (once: the row is locked and checked). */
export async function markDeviceAuthorizationRedeemed(tx: Db, id: string, credentialId: string, now: Date): Promise<void> {
  await tx.prisma.$executeRaw`UPDATE device_authorizations SET redeemed_at = ${now}, credential_id = ${credentialId}::uuid WHERE id = ${id}::uuid AND redeemed_at IS NULL`;
}
