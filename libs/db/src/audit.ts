import type { EventActor } from './outbox.js';
import type { Db } from './database.js';
import { inTransaction } from './transactions.js';

export interface AuditActor {
  readonly credentialId: string | null;
  readonly principalType: 'member' | 'service_account' | 'system';
  readonly principalId: string | null;
  readonly requestId?: string | null;
}

/** The audit actor as its events name it: its principal, or null for the platform (`system`). */
export function eventActorOf(actor: AuditActor): EventActor | null {
  return actor.principalType === 'system' || actor.principalId === null ? null : { type: actor.principalType, id: actor.principalId };
}

export interface AuditEntry {
  readonly workspaceId: string;
  readonly actor: AuditActor;
  /** e.g. credential.created, credential.revoked, role.permissions_replaced */
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  /** Facts about the change; never a secret, a verifier or personal data beyond ids. */
  readonly metadata?: Record<string, unknown>;
  readonly occurredAt: Date;
}

/** Records a credential or permission change in the same transaction as the change itself. */
export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  await tx.prisma.auditEvent.create({
    data: {
      workspaceId: entry.workspaceId,
      actorCredentialId: entry.actor.credentialId,
      actorPrincipalType: entry.actor.principalType,
      actorPrincipalId: entry.actor.principalId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      metadata: (entry.metadata ?? {}) as object,
      requestId: entry.actor.requestId ?? null,
      occurredAt: entry.occurredAt,
    },
  });
}

/**
 * A refused authentication of an identified credential (revoked, expired, locked workspace, inactive principal):
 * `credential.authentication_refused` with the reason, at most once per credential and reason a minute, so a
 * client retrying a dead credential in a loop cannot turn every request into a write. Unknown or malformed
 * tokens name no workspace and are not recorded (the request log has them, without the token).
 */
export async function recordAuthenticationRefusal(
  database: Db,
  input: { workspaceId: string; credentialId: string; principalType: 'member' | 'service_account' | null; principalId: string | null; reason: string; now: Date },
): Promise<void> {
  const since = new Date(input.now.getTime() - 60_000);
  const recent = await database.prisma.auditEvent.findFirst({
    where: {
      workspaceId: input.workspaceId,
      action: 'credential.authentication_refused',
      targetId: input.credentialId,
      occurredAt: { gte: since },
      metadata: { path: ['reason'], equals: input.reason },
    },
    select: { id: true },
  });
  if (recent) return;
  await inTransaction(database, (tx) =>
    recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: { credentialId: input.credentialId, principalType: input.principalType ?? 'system', principalId: input.principalId },
      action: 'credential.authentication_refused',
      targetType: 'credential',
      targetId: input.credentialId,
      metadata: { reason: input.reason },
      occurredAt: input.now,
    }),
  );
}

export interface AuditEventRecord {
  readonly id: string;
  readonly action: string;
  readonly actorPrincipalType: 'member' | 'service_account' | 'system' | null;
  readonly actorPrincipalId: string | null;
  readonly actorCredentialId: string | null;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly requestId: string | null;
  readonly occurredAt: Date;
}

export interface AuditFilter {
  readonly action?: string | undefined;
  readonly actorId?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

/** One keyset page of a workspace's audit events in id (= time) order. */
export async function listAuditEvents(database: Db, workspaceId: string, filter: AuditFilter, afterId: string | undefined, take: number): Promise<AuditEventRecord[]> {
  return database.prisma.auditEvent.findMany({
    where: {
      workspaceId,
      ...(afterId ? { id: { gt: afterId } } : {}),
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.actorId ? { actorPrincipalId: filter.actorId } : {}),
      ...(filter.from || filter.to ? { occurredAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
    },
    orderBy: { id: 'asc' },
    take,
    select: { id: true, action: true, actorPrincipalType: true, actorPrincipalId: true, actorCredentialId: true, targetType: true, targetId: true, requestId: true, occurredAt: true },
  });
}
