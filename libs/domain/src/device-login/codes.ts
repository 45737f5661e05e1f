import { randomInt } from 'node:crypto';
import { secretHash } from '../sign-in/secrets.js';

/**
 * What the device login (RFC 8628; docs/authentication.md "Device login") decides once: its lifetimes, the clients
 * that may start one, and its two codes. The device code is 256 random bits, the CLI's secret; the user code is
 * eight letters the person types (RFC 8628 6.1: consonants only, no vowels to spell words, case and dashes ignored).
 * Only the SHA-256 of each is stored.
 */

/** A device login must be approved within 15 minutes of its start. */
export const DEVICE_LOGIN_LIFETIME_MS = 15 * 60_000;
/** The seconds a device waits between polls; each too-early poll (slow_down) adds SLOW_DOWN_SECONDS (RFC 8628 3.5). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
export const SLOW_DOWN_SECONDS = 5;
/** The grant type of the token request (RFC 8628 3.4). */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The clients that may start a device login, with the name the approval page shows (it mints a person's own token). */
export const DEVICE_CLIENTS: Readonly<Record<string, string>> = { 'workcell-cli': 'the Workcell CLI (workcell)' };

const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

/** A new user code, shown as XXXX-XXXX (20^8 ≈ 2.6 × 10^10 codes; guesses are rate-limited). */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A typed user code as stored: upper case, only the alphabet's letters (spaces and dashes dropped); null if it cannot be one. */
export function normalUserCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 40) return null;
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === USER_CODE_LENGTH && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

export const userCodeHash = (normal: string) => secretHash(`user-code:${normal}`);
