import { z } from 'zod';
import { findServiceAccount, revokeOwnedCredential } from '@workcell/db';
import { isResourceId, MANAGE_SERVICE_ACCOUNTS, notFound, requirePermission } from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';

export const revokeServiceAccountCredentialInput = z.object({ id: z.string().max(64), credentialId: z.string().max(64) }).strict();

/** `DELETE /v1/service-accounts/{id}/credentials/{credentialId}`: permanently revokes that credential and nothing else. */
export const revokeServiceAccountCredential = defineProcedure('revokeServiceAccountCredential', revokeServiceAccountCredentialInput, async (op, input): Promise<{ revoked: boolean }> => {
  const { auth } = op;
  await requirePermission(op, auth, MANAGE_SERVICE_ACCOUNTS, 'revoking a service-account credential');
  const account = isResourceId(input.id) ? await findServiceAccount(op.database, auth.workspaceId, input.id) : null;
  if (!account || !isResourceId(input.credentialId)) throw notFound(account ? 'credential' : 'service account');
  const result = await revokeOwnedCredential(op.database, {
    workspaceId: auth.workspaceId,
    owner: { serviceAccountId: account.id },
    credentialId: input.credentialId,
    actor: actorOf(auth, op.requestId),
    now: op.now(),
  });
  if (result === 'not_found') throw notFound('credential');
  return { revoked: result === 'revoked' };
});
