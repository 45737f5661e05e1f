import type { Tx } from './credentials.js';

export interface AuditActor {
  readonly credentialId: string | null;
  readonly principalType: 'member' | 'service_account' | 'system';
  readonly principalId: string | null;
  readonly requestId?: string | null;
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
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({
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
