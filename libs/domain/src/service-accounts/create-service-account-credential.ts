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
  writeInput,
} from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';

export const createServiceAccountCredentialInput = z.object({ ...writeInput, id: z.string().max(64), ...ServiceAccountCredentialCreate.shape, scopes: scopesInput }).strict();

/**
 * `POST /v1/service-accounts/{id}/credentials`: a credential of the account, for a member holding
 * settings.api.serviceAccounts.manage and every requested scope. The secret is returned here, once.
 */
export const createServiceAccountCredential = defineProcedure(
  'createServiceAccountCredential',
  createServiceAccountCredentialInput,
  async (ctx, input): Promise<WithSecret<ServiceAccountCredentialView>> => {
    const { auth } = input;
    await requirePermission(ctx, auth, MANAGE_SERVICE_ACCOUNTS, 'creating a service-account credential');
    const account = isResourceId(input.id) ? await findServiceAccount(ctx.database, auth.workspaceId, input.id) : null;
    if (!account) throw notFound('service account');
    assertMayGrant(auth, input.scopes);
    const now = ctx.now();
    const { credential, token } = await mintCredential(ctx.database, ctx.config, {
      workspaceId: auth.workspaceId,
      owner: { serviceAccountId: account.id },
      name: input.name,
      scopes: input.scopes,
      expiresAt: expiryOf(input.expiresAt, now) ?? null,
      actor: actorOf(auth, input.requestId),
      now,
    });
    return { ...serviceAccountCredentialView(credential, now), secret: token };
  },
);
