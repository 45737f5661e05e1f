import { revokePersonalAccessToken } from '../credentials/revoke-credential.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { accountMember } from './account-member.js';

/** Revoking one of the person's personal access tokens on the account page: the same revocation as `DELETE /v1/credentials/{id}`. */
export async function revokeAccountToken(ctx: ProcedureContext, userId: string, input: { workspaceId?: unknown; id?: unknown }, requestId: string | null): Promise<{ revoked: boolean }> {
  const member = await accountMember(ctx, userId, input.workspaceId);
  return revokePersonalAccessToken(ctx, {
    workspaceId: member.workspaceId,
    memberId: member.memberId,
    id: typeof input.id === 'string' ? input.id : '',
    actor: { credentialId: null, principalType: 'member', principalId: member.memberId, requestId },
  });
}
