import { type AuditActor, type AuditEntry, type Db, recordAudit } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import type { Operation } from '../kernel/procedure.js';

/** Who did it, for the audit trail: the authenticating credential and its principal, and the request. */
export function actorOf(auth: V1AuthContext, requestId: string | null = null): AuditActor {
  return { credentialId: auth.credential.id, principalType: auth.principal.type, principalId: auth.principal.id, requestId };
}

/** The platform itself, for changes no request made (the webhook relay and delivery engine). */
export const SYSTEM_ACTOR: AuditActor = { credentialId: null, principalType: 'system', principalId: null, requestId: null };

/** What an operation changed, as its audit entry names it: `<type>.<action>` about the resource `id` of that type. */
export interface OperationAuditEntry {
  /** The target's type (`role`): the action's prefix and the entry's target type. */
  readonly type: string;
  readonly id: string | null;
  /** What happened to it (`permissions_replaced`): the stored action is `<type>.<action>`. */
  readonly action: string;
  /** Facts about the change; never a secret, a verifier or personal data beyond ids. */
  readonly metadata?: Record<string, unknown>;
  readonly at: Date;
}

/**
 * Records an operation's audit entry in `tx`: its workspace and actor (credential, principal and request) are the
 * operation's, and the action is named after its target's type, so the two cannot disagree.
 */
export function recordOperationAudit(op: Pick<Operation, 'auth' | 'requestId'>, tx: Db, entry: OperationAuditEntry): Promise<void> {
  const { type, id, action, metadata, at } = entry;
  const recorded: AuditEntry = { workspaceId: op.auth.workspaceId, actor: actorOf(op.auth, op.requestId), action: `${type}.${action}`, targetType: type, targetId: id, occurredAt: at };
  return recordAudit(tx, metadata === undefined ? recorded : { ...recorded, metadata });
}
