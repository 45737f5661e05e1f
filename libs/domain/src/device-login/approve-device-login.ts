import { approveDeviceAuthorization } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import { accountTokenRequest } from '../sign-in/create-account-token.js';
import { normalUserCode, userCodeHash } from './codes.js';
import { notPending } from './find-device-login.js';

/**
 * `POST /device/approve`: the signed-in person approves a waiting device login, choosing the workspace, the token's
 * name, scopes and expiry, checked exactly like the account page's create (accountTokenRequest: membership,
 * settings.api.personalCredentials, scopes the roles give, expiry at most a year). Nothing is minted yet: the CLI's
 * next poll mints the token (redeemDeviceLogin), so its secret is never stored. One decision wins (compare-and-set);
 * a code no longer waiting is 404.
 */
export async function approveDeviceLogin(
  ctx: ProcedureContext,
  userId: string,
  input: { userCode: unknown; workspaceId: unknown; name: unknown; scopes: unknown; expiresOn: unknown },
  requestId: string | null,
): Promise<void> {
  const code = normalUserCode(input.userCode);
  if (code === null) throw notPending();
  const request = await accountTokenRequest(ctx, userId, { workspaceId: input.workspaceId, name: input.name, scopes: input.scopes, expiresOn: input.expiresOn });
  const approved = await approveDeviceAuthorization(ctx.database, {
    userCodeHash: userCodeHash(code),
    userId,
    workspaceId: request.member.workspaceId,
    tokenName: request.name,
    scopes: request.scopes,
    tokenExpiresAt: request.expiresAt,
    now: ctx.now(),
    actor: { credentialId: null, principalType: 'member', principalId: request.member.memberId, requestId },
  });
  if (!approved) throw notPending();
}
