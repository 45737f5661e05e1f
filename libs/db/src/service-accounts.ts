import { type AuditActor, recordAudit } from './audit.js';
import { revokeServiceAccountCredentials } from './credential-admin.js';
import { assertChangingAuthorization, type Db } from './database.js';
import { completeHeldKey, type HeldIdempotencyKey } from './idempotency.js';
import type { Prisma } from './generated/prisma/client.js';
import { inAuthorizationTransaction, inTransaction } from './transactions.js';

/**
 * Service-account principals. Deleting one archives it (disabled, every credential revoked, archived_at
 * set): its credentials, resource grants and audit events keep referring to it, and archived accounts are
 * invisible to every read and write here, exactly like ids of another workspace.
 */

export interface ServiceAccountRow {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: 'active' | 'disabled';
  readonly ownerMemberId: string;
  readonly revision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const SELECT = {
  id: true,
  name: true,
  description: true,
  status: true,
  ownerMemberId: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ServiceAccountSelect;

export async function listServiceAccountPage(database: Db, input: { workspaceId: string; afterId: string | undefined; take: number }): Promise<ServiceAccountRow[]> {
  return database.prisma.serviceAccount.findMany({
    where: { workspaceId: input.workspaceId, archivedAt: null, ...(input.afterId === undefined ? {} : { id: { gt: input.afterId } }) },
    orderBy: { id: 'asc' },
    take: input.take,
    select: SELECT,
  });
}

/** An unarchived service account of this workspace, or null. */
export async function findServiceAccount(database: Db, workspaceId: string, id: string): Promise<ServiceAccountRow | null> {
  return database.prisma.serviceAccount.findFirst({ where: { workspaceId, id, archivedAt: null }, select: SELECT });
}

export async function createServiceAccount(
  database: Db,
  input: { workspaceId: string; name: string; description: string | null; ownerMemberId: string; actor: AuditActor; now: Date },
  /** The operation's held idempotency key and its answer for the new row, stored with the key in this transaction (completeHeldKey). */
  completes?: { heldKey: HeldIdempotencyKey | null | undefined; answer: (row: ServiceAccountRow) => unknown },
): Promise<ServiceAccountRow> {
  return inTransaction(database, async (tx) => {
    const row = await tx.prisma.serviceAccount.create({
      data: { workspaceId: input.workspaceId, name: input.name, description: input.description, ownerMemberId: input.ownerMemberId },
      select: SELECT,
    });
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: 'service_account.created',
      targetType: 'service_account',
      targetId: row.id,
      metadata: { name: row.name, ownerMemberId: row.ownerMemberId },
      occurredAt: input.now,
    });
    if (completes) await completeHeldKey(tx, completes.heldKey, input.workspaceId, completes.answer(row));
    return row;
  });
}

export interface ServiceAccountChanges {
  readonly name?: string | undefined;
  readonly description?: string | null | undefined;
  readonly status?: 'active' | 'disabled' | undefined;
}

/**
 * Applies a partial update and records `service_account.updated` (which attributes changed, and the status
 * transition), in one transaction. Disabling stops every credential of the account at once, because
 * authentication checks the account's status on every request; enabling again resumes the unrevoked ones.
 */
export async function updateServiceAccount(database: Db, input: { workspaceId: string; id: string; changes: ServiceAccountChanges; actor: AuditActor; now: Date }): Promise<ServiceAccountRow | null> {
  return inAuthorizationTransaction(database, input.workspaceId, async (tx) => {
    const { workspaceId, id, changes } = input;
    assertChangingAuthorization(workspaceId);
    // Locks the row, so the status transition recorded below is the one that happened.
    const locked = await tx.prisma.$queryRaw<{ status: 'active' | 'disabled' }[]>`
      SELECT status::text AS status FROM service_accounts WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND archived_at IS NULL FOR UPDATE`;
    const current = locked[0];
    if (!current) return null;
    const data: Prisma.ServiceAccountUpdateInput = { revision: { increment: 1 } };
    if (changes.name !== undefined) data.name = changes.name;
    if (changes.description !== undefined) data.description = changes.description;
    if (changes.status !== undefined && changes.status !== current.status) {
      data.status = changes.status;
      data.disabledAt = changes.status === 'disabled' ? input.now : null;
    }
    const row = await tx.prisma.serviceAccount.update({ where: { workspaceId_id: { workspaceId, id } }, data, select: SELECT });
    await recordAudit(tx, {
      workspaceId,
      actor: input.actor,
      action: 'service_account.updated',
      targetType: 'service_account',
      targetId: id,
      metadata: { changed: Object.keys(changes).filter((k) => changes[k as keyof ServiceAccountChanges] !== undefined), statusFrom: current.status, statusTo: row.status },
      occurredAt: input.now,
    });
    return row;
  });
}

/**
 * deleteServiceAccount: disables and archives the account and revokes all its credentials, recording
 * `service_account.deleted` and one `credential.revoked` per credential, in one transaction. Nothing is
 * physically deleted. False when there is no such unarchived account.
 */
export async function archiveServiceAccount(database: Db, input: { workspaceId: string; id: string; actor: AuditActor; now: Date }): Promise<boolean> {
  return inAuthorizationTransaction(database, input.workspaceId, async (tx) => {
    const { workspaceId, id, now } = input;
    assertChangingAuthorization(workspaceId);
    const current = await tx.prisma.serviceAccount.findFirst({ where: { workspaceId, id, archivedAt: null }, select: { status: true, disabledAt: true } });
    if (!current) return false;
    const { count } = await tx.prisma.serviceAccount.updateMany({
      where: { workspaceId, id, archivedAt: null },
      data: { status: 'disabled', disabledAt: current.disabledAt ?? now, archivedAt: now, revision: { increment: 1 } },
    });
    if (count === 0) return false;
    const revoked = await revokeServiceAccountCredentials(tx, { workspaceId, serviceAccountId: id, actor: input.actor, now, reason: 'service_account_deleted' });
    await recordAudit(tx, {
      workspaceId,
      actor: input.actor,
      action: 'service_account.deleted',
      targetType: 'service_account',
      targetId: id,
      metadata: { revokedCredentialIds: revoked },
      occurredAt: now,
    });
    return true;
  });
}
