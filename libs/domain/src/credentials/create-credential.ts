import { z } from 'zod';
import { type AuditActor, mintCredential } from '@workcell/db';
import { PersonalAccessTokenCreate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { defineProcedure, type ProcedureContext } from '../kernel/procedure.js';
import { assertMayGrant, type CredentialView, credentialView, expiryOf, PERSONAL_CREDENTIALS, type PermissionSubject, requirePermission, scopesInput, type WithSecret } from './access.js';

export const createCredentialInput = z.object({ ...PersonalAccessTokenCreate.shape, scopes: scopesInput }).strict();

/**
 * `POST /v1/credentials`: a personal access token of the acting member. Needs the member permission
 * settings.api.personalCredentials and only scopes the calling credential holds. The scopes are stored as
 * given and narrowed to the member's permissions on every request. The secret is returned here, once.
 */
export const createCredential = defineProcedure('createCredential', createCredentialInput, async (op, input): Promise<WithSecret<CredentialView>> => {
  const { auth } = op;
  return issuePersonalAccessToken(op, {
    auth,
    name: input.name,
    scopes: input.scopes,
    expiresAt: input.expiresAt,
    actor: actorOf(auth, op.requestId),
  });
});

/**
 * The one way a personal access token is minted, for `POST /v1/credentials` and the account page alike (the
 * page passes the member it acts for, with the member's permissions as what it holds): the member permission
 * settings.api.personalCredentials, no scope the caller does not hold, an expiry in the future, then the mint
 * with its `credential.created` audit event.
 */
export async function issuePersonalAccessToken(
  ctx: ProcedureContext,
  input: { auth: PermissionSubject; name: string; scopes: readonly string[]; expiresAt: string | null | undefined; actor: AuditActor },
): Promise<WithSecret<CredentialView>> {
  const { auth } = input;
  const memberId = await requirePermission(ctx, auth, PERSONAL_CREDENTIALS, 'creating a personal access token');
  assertMayGrant(auth, input.scopes);
  const now = ctx.now();
  const { credential, token } = await mintCredential(ctx.database, ctx.config, {
    workspaceId: auth.workspaceId,
    owner: { memberId },
    name: input.name,
    scopes: input.scopes,
    expiresAt: expiryOf(input.expiresAt, now) ?? null,
    actor: input.actor,
    now,
  });
  return { ...credentialView(credential, now), secret: token };
}
