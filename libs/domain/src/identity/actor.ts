import { type AuditActor, type AuditEntry, type Db, recordAudit } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import type { Operation } from '../kernel/procedure.js';

/** Who did it, for the audit trail: the authenticating credential and its principal, and the request. */
export function actorOf(auth: V1AuthContext, requestId: string | null = null): AuditActor {
  return { credentialId: auth.credential.id, principalType: auth.principal.type, principalId: auth.principal.id, requestId };
}

/** The platform itself, for changes no request made (the webhook relay and delivery engine). */
export const SYSTEM_ACTOR: AuditActor = { credentialId: null, principalType: 'system', principalId: null, requestId: null };

/** Records an operation's audit entry in `tx`: its workspace and actor (credential, principal and request) are the operation's. */
export function recordOperationAudit(op: Pick<Operation, 'auth' | 'requestId'>, tx: Db, entry: Omit<AuditEntry, 'workspaceId' | 'actor'>): Promise<void> {
  return recordAudit(tx, { workspaceId: op.auth.workspaceId, actor: actorOf(op.auth, op.requestId), ...entry });
}
