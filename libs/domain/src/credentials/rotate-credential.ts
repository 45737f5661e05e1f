import { z } from 'zod';
import { findOwnedCredential, rotateOwnedCredential } from '@workcell/db';
import { CredentialRotate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertMayGrant, type CredentialView, credentialView, expiryOf, isResourceId, notFound, PERSONAL_CREDENTIALS, requirePermission, type WithSecret } from './access.js';

export const rotateCredentialInput = z.object({ id: z.string().max(64), ...CredentialRotate.shape }).strict();

/**
 * `POST /v1/credentials/{id}/rotate`: replaces one of the acting member's active tokens with a successor (a
 * new credential, `rotated_from_id` pointing back, same name and scopes, the expiry kept unless given) and
 * revokes the previous one in the same transaction, so its secret stops working at once. Only an active token
 * can be rotated (409 conflict otherwise); the caller needs settings.api.personalCredentials and every scope of
 * the token, since rotation hands out a secret for them.
 */
export const rotateCredential = defineProcedure('rotateCredential', rotateCredentialInput, async (op, input): Promise<WithSecret<CredentialView>> => {
  const { auth } = op;
  const memberId = await requirePermission(op, auth, PERSONAL_CREDENTIALS, 'rotating a personal access token');
  if (!isResourceId(input.id)) throw notFound('credential');
  const owner = { memberId };
  const current = await findOwnedCredential(op.database, auth.workspaceId, owner, input.id);
  if (!current) throw notFound('credential');
  assertMayGrant(auth, current.scopes);
  const now = op.now();
  const rotated = await rotateOwnedCredential(op.database, op.config, {
    workspaceId: auth.workspaceId,
    owner,
    credentialId: current.id,
    expiresAt: expiryOf(input.expiresAt, now),
    actor: actorOf(auth, op.requestId),
    now,
  });
  if (!rotated) throw new DomainError('conflict', 'only an active credential can be rotated; create a new one instead');
  return { ...credentialView(rotated.credential, now), secret: rotated.token };
});
