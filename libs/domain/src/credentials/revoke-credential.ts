import { z } from 'zod';
import { type AuditActor, revokeOwnedCredential } from '@workcell/db';
import { actorOf } from '../identity/actor.js';
import { defineProcedure, type ProcedureContext } from '../kernel/procedure.js';
import { isResourceId, notFound, requireMember } from './access.js';

export const revokeCredentialInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/credentials/{id}`: permanently revokes one of the acting member's personal access tokens and
 * nothing else. Needs no permission (giving up access is always allowed); revoking a revoked token changes
 * nothing and succeeds.
 */
export const revokeCredential = defineProcedure('revokeCredential', revokeCredentialInput, async (op, input): Promise<{ revoked: boolean }> => {
  const { auth } = op;
  const memberId = requireMember(auth, 'revoking a personal access token');
  return revokePersonalAccessToken(op, { workspaceId: auth.workspaceId, memberId, id: input.id, actor: actorOf(auth, op.requestId) });
});

/** The one way a personal access token is revoked (`DELETE /v1/credentials/{id}` and the account page): only the member's own; 404 otherwise. */
export async function revokePersonalAccessToken(ctx: ProcedureContext, input: { workspaceId: string; memberId: string; id: string; actor: AuditActor }): Promise<{ revoked: boolean }> {
  if (!isResourceId(input.id)) throw notFound('credential');
  const result = await revokeOwnedCredential(ctx.database, {
    workspaceId: input.workspaceId,
    owner: { memberId: input.memberId },
    credentialId: input.id,
    actor: input.actor,
    now: ctx.now(),
  });
  if (result === 'not_found') throw notFound('credential');
  return { revoked: result === 'revoked' };
}
