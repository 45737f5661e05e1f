import { z } from 'zod';
import { findServiceAccount, mintCredential } from '@workcell/db';
import { ServiceAccountCredentialCreate } from '@workcell/registry';
import {
  assertMayGrant,
  expiryOf,
  isResourceId,
  MANAGE_SERVICE_ACCOUNTS,
  notFound,
  requirePermission,
  scopesInput,
  type ServiceAccountCredentialView,
  serviceAccountCredentialView,
  type WithSecret,
} from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';

export const createServiceAccountCredentialInput = z.object({ id: z.string().max(64), ...ServiceAccountCredentialCreate.shape, scopes: scopesInput }).strict();

/**
 * `POST /v1/service-accounts/{id}/credentials`: a credential of the account, for a member holding
 * settings.api.serviceAccounts.manage and every requested scope. The secret is returned here, once.
 */
export const createServiceAccountCredential = defineProcedure(
  'createServiceAccountCredential',
  createServiceAccountCredentialInput,
  async (op, input): Promise<WithSecret<ServiceAccountCredentialView>> => {
    const { auth } = op;
    await requirePermission(op, auth, MANAGE_SERVICE_ACCOUNTS, 'creating a service-account credential');
    const account = isResourceId(input.id) ? await findServiceAccount(op.database, auth.workspaceId, input.id) : null;
    if (!account) throw notFound('service account');
    assertMayGrant(auth, input.scopes);
    const now = op.now();
    const { credential, token } = await mintCredential(op.database, op.config, {
      workspaceId: auth.workspaceId,
      owner: { serviceAccountId: account.id },
      name: input.name,
      scopes: input.scopes,
      expiresAt: expiryOf(input.expiresAt, now) ?? null,
      actor: actorOf(auth, op.requestId),
      now,
    });
    return { ...serviceAccountCredentialView(credential, now), secret: token };
  },
);
