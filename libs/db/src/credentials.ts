import type { Database } from './database.js';

export interface AuditActor {
  readonly credentialId: string | null;
  readonly principalType: 'member' | 'service_account' | 'system';
  readonly principalId: string | null;
  readonly requestId?: string | null;
}

/**
 * Revokes one credential and records who did it, in one transaction. Only that credential changes;
 * returns false when it was not active (already revoked, or not in this workspace).
 */
export async function revokeCredential(database: Database, workspaceId: string, credentialId: string, actor: AuditActor, now: Date): Promise<boolean> {
  return database.prisma.$transaction(async (tx) => {
    const { count } = await tx.credential.updateMany({
      where: { workspaceId, id: credentialId, status: 'active', revokedAt: null },
      data: { status: 'revoked', revokedAt: now, revision: { increment: 1 } },
    });
    if (count === 0) return false;
    await tx.auditEvent.create({
      data: {
        workspaceId,
        actorCredentialId: actor.credentialId,
        actorPrincipalType: actor.principalType,
        actorPrincipalId: actor.principalId,
        action: 'credential.revoked',
        targetType: 'credential',
        targetId: credentialId,
        requestId: actor.requestId ?? null,
        occurredAt: now,
      },
    });
    return true;
  });
}
