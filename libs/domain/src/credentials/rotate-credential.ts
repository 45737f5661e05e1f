import { z } from 'zod';
import { CredentialRotate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { type CredentialView, credentialView, PERSONAL_CREDENTIALS, requirePermission, rotateOwned, type WithSecret } from './access.js';

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
  const now = op.now();
  const rotated = await rotateOwned(op, { memberId }, input.id, input.expiresAt, now);
  return { ...credentialView(rotated.credential, now), secret: rotated.token };
});
