import { z } from 'zod';
import { revokeCredential } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { actorOf } from './actor.js';

export const revokeOwnCredentialInput = z.object({}).strict();

/**
 * `DELETE /v1/auth/context`: permanently revokes exactly the credential that authenticated the request.
 * Other credentials, even of the same principal, are untouched. The audit trail records it (never the secret).
 */
export const revokeOwnCredential = defineProcedure('revokeOwnCredential', revokeOwnCredentialInput, async (op): Promise<{ revoked: true }> => {
  const { auth } = op;
  const revoked = await revokeCredential(op.database, auth.workspaceId, auth.credential.id, actorOf(auth, op.requestId), op.now());
  // A concurrent revocation won the race; the credential is revoked either way.
  if (!revoked) throw new DomainError('credential_revoked', 'the credential has been revoked');
  return { revoked: true };
});
