import { z } from 'zod';
import { findOwnedCredential, findServiceAccount, rotateOwnedCredential } from '@workcell/db';
import { CredentialRotate } from '@workcell/registry';
import {
  assertMayGrant,
  expiryOf,
  isResourceId,
  MANAGE_SERVICE_ACCOUNTS,
  notFound,
  requirePermission,
  type ServiceAccountCredentialView,
  serviceAccountCredentialView,
  type WithSecret,
} from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { DomainError } from '../kernel/errors.js';
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
    const owner = { serviceAccountId: account.id };
    const current = isResourceId(input.credentialId) ? await findOwnedCredential(op.database, auth.workspaceId, owner, input.credentialId) : null;
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
    return { ...serviceAccountCredentialView(rotated.credential, now), secret: rotated.token };
  },
);
