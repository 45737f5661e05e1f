import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '@workcell/config';

/**
 * What sign-in and sessions share (docs/authentication.md "Signing in"): the lifetimes, and the secrets' handling.
 * A link's token and a session's id are 256 random bits (base64url); only their SHA-256 is stored. Form tokens
 * against cross-site requests (CSRF) are an HMAC of what they are bound to (a session, or before one the browser's
 * anti-forgery cookie), keyed by a key derived from CREDENTIAL_SECRET: nothing to store, nothing to forge.
 */

/** A sign-in link works once, for 15 minutes. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60_000;
/** A session ends after 2 hours without a request, and 12 hours after it started whatever its use. */
export const SESSION_IDLE_MS = 2 * 3600_000;
export const SESSION_ABSOLUTE_MS = 12 * 3600_000;
/** A token created on the account page must expire, at most a year (365 days) after its creation. */
export const ACCOUNT_TOKEN_MAX_LIFETIME_MS = 365 * 24 * 3600_000;

export const randomSecret = (): string => randomBytes(32).toString('base64url');

export const secretHash = (secret: string): Uint8Array<ArrayBuffer> => new Uint8Array(createHash('sha256').update(secret, 'utf8').digest());

/** A new session starting at `now`: its id (the cookie's value, returned once) and what is stored of it. */
export function newSession(now: Date, requestId: string | null) {
  const secret = randomSecret();
  return { secret, stored: { sessionIdHash: secretHash(secret), now, sessionExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS), requestId } };
}

/** The form token bound to `binding` (a session id, or an anti-forgery cookie's value). */
export function formToken(config: AppConfig, binding: string): string {
  const key = createHmac('sha256', config.credentialSecret).update('workcell form token v1').digest();
  return createHmac('sha256', key).update(binding, 'utf8').digest('base64url');
}

/** Whether `presented` is the form token of `binding` (constant time). */
export function formTokenValid(config: AppConfig, binding: string | undefined, presented: unknown): boolean {
  if (binding === undefined || binding.length === 0 || typeof presented !== 'string' || presented.length === 0 || presented.length > 100) return false;
  const expected = Buffer.from(formToken(config, binding));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
