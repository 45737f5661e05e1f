import { z } from 'zod';
import { findServiceAccount } from '@workcell/db';
import { CredentialRotate } from '@workcell/registry';
import {
  isResourceId,
  MANAGE_SERVICE_ACCOUNTS,
  notFound,
  requirePermission,
  rotateOwned,
  type ServiceAccountCredentialView,
  serviceAccountCredentialView,
  type WithSecret,
} from '../credentials/access.js';
import { defineProcedure } from '../kernel/procedure.js';

export const rotateServiceAccountCredentialInput = z.object({ id: z.string().max(64), credentialId: z.string().max(64), ...CredentialRotate.shape }).strict();

/**
 * `POST /v1/service-accounts/{id}/credentials/{credentialId}/rotate`: like rotateCredential, for a credential
 * of the account: a successor credential is minted and the previous one revoked in the same transaction.
 */
export const rotateServiceAccountCredential = defineProcedure(
  'rotateServiceAccountCredential',
  rotateServiceAccountCredentialInput,
  async (op, input): Promise<WithSecret<ServiceAccountCredentialView>> => {
    const { auth } = op;
    await requirePermission(op, auth, MANAGE_SERVICE_ACCOUNTS, 'rotating a service-account credential');
    const account = isResourceId(input.id) ? await findServiceAccount(op.database, auth.workspaceId, input.id) : null;
    if (!account) throw notFound('service account');
    const now = op.now();
    const rotated = await rotateOwned(op, { serviceAccountId: account.id }, input.credentialId, input.expiresAt, now);
    return { ...serviceAccountCredentialView(rotated.credential, now), secret: rotated.token };
  },
);
