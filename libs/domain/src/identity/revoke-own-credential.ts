import { z } from 'zod';
import { revokeCredential } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

export const revokeOwnCredentialInput = z
  .object({
    workspaceId: z.uuid(),
    credentialId: z.uuid(),
    principal: z.object({ type: z.enum(['member', 'service_account']), id: z.uuid() }).strict(),
    requestId: z.string().max(128).nullable(),
  })
  .strict();

/**
 * `DELETE /v1/auth/context`: permanently revokes exactly the credential that authenticated the request.
 * Other credentials, even of the same principal, are untouched. The audit trail records it (never the secret).
 */
export const revokeOwnCredential = defineProcedure('revokeOwnCredential', revokeOwnCredentialInput, async (ctx, input): Promise<{ revoked: true }> => {
  const revoked = await revokeCredential(
    ctx.database,
    input.workspaceId,
    input.credentialId,
    { credentialId: input.credentialId, principalType: input.principal.type, principalId: input.principal.id, requestId: input.requestId },
    ctx.now(),
  );
  // A concurrent revocation won the race; the credential is revoked either way.
  if (!revoked) throw new DomainError('credential_revoked', 'the credential has been revoked');
  return { revoked: true };
});
