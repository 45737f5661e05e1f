import { z } from 'zod';
import { createDeviceAuthorization } from '@workcell/db';
import { V1_SCOPES } from '@workcell/credentials';
import { DomainError } from '../kernel/errors.js';
import { issuesOf, type ProcedureContext } from '../kernel/procedure.js';
import { randomSecret, secretHash } from '../sign-in/secrets.js';
import { DEVICE_CLIENTS, DEVICE_LOGIN_LIFETIME_MS, DEVICE_POLL_INTERVAL_SECONDS, newUserCode, normalUserCode, userCodeHash } from './codes.js';

/** The device authorization request (RFC 8628 3.1): the client, and the scopes it asks for (space-separated; the person decides). */
export const StartDeviceLogin = z.strictObject({
  client_id: z.string().max(100),
  scope: z
    .string()
    .max(4000)
    .optional()
    .transform((s) => (s ?? '').split(' ').filter((x) => x.length > 0))
    .pipe(z.array(z.enum(V1_SCOPES)).max(V1_SCOPES.length * 2)),
});

/** What the device shows and keeps (RFC 8628 3.2); `deviceCode` is its secret, never shown to the person. */
export interface StartedDeviceLogin {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly expiresInSeconds: number;
  readonly intervalSeconds: number;
}

/**
 * `POST /device/code`: starts a device login for a known client. Only the two codes' hashes are stored; a user code
 * already taken (by any login, ever) is drawn again. An unknown client is 401 `invalid_client` at the edge.
 */
export async function startDeviceLogin(ctx: ProcedureContext, input: unknown): Promise<StartedDeviceLogin> {
  const parsed = StartDeviceLogin.safeParse(input);
  if (!parsed.success) throw new DomainError('validation_failed', 'the device authorization request is not valid', issuesOf(parsed.error));
  if (!(parsed.data.client_id in DEVICE_CLIENTS)) throw new DomainError('unauthenticated', `unknown client ${JSON.stringify(parsed.data.client_id)}`);
  const now = ctx.now();
  const deviceCode = randomSecret();
  for (let attempt = 0; attempt < 5; attempt++) {
    const userCode = newUserCode();
    const created = await createDeviceAuthorization(ctx.database, {
      deviceCodeHash: secretHash(deviceCode),
      userCodeHash: userCodeHash(normalUserCode(userCode)!),
      clientId: parsed.data.client_id,
      requestedScopes: [...new Set(parsed.data.scope)],
      now,
      expiresAt: new Date(now.getTime() + DEVICE_LOGIN_LIFETIME_MS),
      pollIntervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
    });
    if (created) return { deviceCode, userCode, expiresInSeconds: DEVICE_LOGIN_LIFETIME_MS / 1000, intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS };
  }
  // Five taken codes in a row from 2.6 × 10^10 means something other than chance.
  throw new Error('no free user code after five draws');
}
