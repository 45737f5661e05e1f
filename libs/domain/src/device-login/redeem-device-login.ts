import { inTransaction, lockDeviceAuthorization, markDeviceAuthorizationRedeemed, recordDevicePoll } from '@workcell/db';
import { issuePersonalAccessToken } from '../credentials/create-credential.js';
import { isDomainError } from '../kernel/errors.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { accountMember } from '../sign-in/account-member.js';
import { secretHash } from '../sign-in/secrets.js';
import { DEVICE_CLIENTS, DEVICE_CODE_GRANT_TYPE, SLOW_DOWN_SECONDS } from './codes.js';

/** The token endpoint's refusals (RFC 6749 5.2 and RFC 8628 3.5). */
export type DeviceTokenRefusal = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token';

export type DeviceTokenOutcome =
  | { readonly kind: 'token'; readonly token: string; readonly credentialId: string; readonly workspaceId: string; readonly scopes: readonly string[]; readonly expiresAt: Date }
  | { readonly kind: 'refused'; readonly error: DeviceTokenRefusal; readonly description: string };

const refused = (error: DeviceTokenRefusal, description: string): DeviceTokenOutcome => ({ kind: 'refused', error, description });

const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : null);

/**
 * `POST /device/token` (RFC 8628 3.4): the CLI's poll. In one transaction holding the device login's row (so two
 * polls of one device run one after another): a poll sooner than the interval is `slow_down` and raises the interval;
 * undecided is `authorization_pending`; refused `access_denied`; past its 15 minutes `expired_token`; and an approval
 * is redeemed exactly once: the token is minted now, as the approving member, with the authority they have now
 * (issuePersonalAccessToken checks the permission and the scopes again; if they lost them, `access_denied`), and
 * its secret is in this answer only. Any later poll of the code is `invalid_grant`.
 */
export async function redeemDeviceLogin(ctx: ProcedureContext, input: Readonly<Record<string, unknown>>, requestId: string | null): Promise<DeviceTokenOutcome> {
  const grantType = text(input['grant_type'], 200);
  const deviceCode = text(input['device_code'], 200);
  const clientId = text(input['client_id'], 100);
  if (grantType === null || deviceCode === null) return refused('invalid_request', 'grant_type and device_code are required');
  if (grantType !== DEVICE_CODE_GRANT_TYPE) return refused('unsupported_grant_type', `this endpoint serves the grant type ${DEVICE_CODE_GRANT_TYPE} only`);
  if (clientId === null || !(clientId in DEVICE_CLIENTS)) return refused('invalid_client', 'unknown client');
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const login = await lockDeviceAuthorization(tx, secretHash(deviceCode));
    if (!login || login.clientId !== clientId) return refused('invalid_grant', 'unknown device code');
    if (login.redeemedAt !== null) return refused('invalid_grant', 'this device code has been used already: start the login again');
    if (login.deniedAt !== null) return refused('access_denied', 'the login was refused on the approval page');
    if (login.expiresAt <= now) return refused('expired_token', 'the code was not approved within 15 minutes: start the login again');
    if (login.lastPolledAt !== null && now.getTime() - login.lastPolledAt.getTime() < login.pollIntervalSeconds * 1000) {
      await recordDevicePoll(tx, login.id, now, login.pollIntervalSeconds + SLOW_DOWN_SECONDS);
      return refused('slow_down', `poll at most every ${login.pollIntervalSeconds + SLOW_DOWN_SECONDS} seconds`);
    }
    await recordDevicePoll(tx, login.id, now, login.pollIntervalSeconds);
    if (login.approvedAt === null || login.userId === null || login.workspaceId === null) return refused('authorization_pending', 'waiting for the person to approve the code');
    const joined: ProcedureContext = { ...ctx, database: tx };
    try {
      const member = await accountMember(joined, login.userId, login.workspaceId);
      const created = await issuePersonalAccessToken(joined, {
        auth: member.subject,
        name: login.tokenName ?? 'workcell CLI',
        scopes: login.scopes ?? [],
        expiresAt: login.tokenExpiresAt?.toISOString() ?? null,
        actor: { credentialId: null, principalType: 'member', principalId: member.memberId, requestId },
      });
      await markDeviceAuthorizationRedeemed(tx, login.id, created.id, now);
      return { kind: 'token', token: created.secret, credentialId: created.id, workspaceId: member.workspaceId, scopes: created.scopes, expiresAt: login.tokenExpiresAt ?? now };
    } catch (error) {
      // Refused before anything was written (the membership, the permission or the scopes are gone since the approval).
      if (isDomainError(error) && ['not_found', 'forbidden', 'insufficient_scope'].includes(error.code)) return refused('access_denied', `the approval no longer holds: ${error.message}`);
      throw error;
    }
  });
}
