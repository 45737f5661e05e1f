import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credential format (v1, and v0 team tokens):
 *
 *   <prefix><region>_<cell>_<secret><checksum>
 *
 *   prefix    svc_pat_v2_ | svc_sa_v2_ | svc_sk_v1_ (v1 kinds, contract 5.2) or wc_v0_ (v0 team tokens)
 *   region    routing hint, e.g. eu1   (untrusted: the cell verifies the stored credential)
 *   cell      routing hint, e.g. c1
 *   secret    43 base62 characters encoding 32 random bytes (256 bits)
 *   checksum  6 base62 characters of the CRC-32 of everything before it
 *
 * The fixed prefix lets secret scanners recognise a leaked credential; the checksum lets a typo or a
 * truncated paste fail before any database lookup. Only an HMAC-SHA-256 verifier of the whole token, keyed
 * with the server secret, is stored: tokens carry 256 bits of entropy, so a slow password hash would add
 * latency without adding security.
 */

export const CREDENTIAL_KINDS = {
  personal_access_token: 'svc_pat_v2_',
  service_account: 'svc_sa_v2_',
  legacy_v1: 'svc_sk_v1_',
} as const;
export const V0_TEAM_TOKEN_PREFIX = 'wc_v0_';

export type CredentialKind = keyof typeof CREDENTIAL_KINDS;
export type TokenFamily = CredentialKind | 'v0_team_token';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const LABEL = '[a-z][a-z0-9-]{0,15}';
/** Longer input is rejected before any parsing work, so oversized headers cost nothing. */
export const MAX_TOKEN_LENGTH = 128;

function base62(value: bigint, length: number): string {
  let out = '';
  let v = value;
  while (v > 0n) {
    out = BASE62[Number(v % 62n)]! + out;
    v /= 62n;
  }
  return out.padStart(length, '0');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function prefixOf(family: TokenFamily): string {
  return family === 'v0_team_token' ? V0_TEAM_TOKEN_PREFIX : CREDENTIAL_KINDS[family];
}

/** Mints a new token. Returned once to its creator; never stored. */
export function generateToken(family: TokenFamily, region: string, cell: string): string {
  if (!new RegExp(`^${LABEL}$`).test(region) || !new RegExp(`^${LABEL}$`).test(cell)) throw new Error('invalid region or cell label');
  const secret = base62(BigInt(`0x${randomBytes(32).toString('hex')}`), SECRET_LENGTH);
  return withChecksum(`${prefixOf(family)}${region}_${cell}_${secret}`);
}

/** A token body (prefix, hint and secret) with its CRC-32 checksum appended: what makes a token well-formed. */
export function withChecksum(body: string): string {
  return body + base62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

export type TokenParseFailure = 'malformed' | 'too_long' | 'unknown_prefix' | 'bad_checksum';

export interface ParsedToken {
  readonly family: TokenFamily;
  readonly region: string;
  readonly cell: string;
}

const SHAPE = new RegExp(`^(svc_pat_v2_|svc_sa_v2_|svc_sk_v1_|wc_v0_)(${LABEL})_(${LABEL})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);
const FAMILY_BY_PREFIX: Record<string, TokenFamily> = {
  svc_pat_v2_: 'personal_access_token',
  svc_sa_v2_: 'service_account',
  svc_sk_v1_: 'legacy_v1',
  wc_v0_: 'v0_team_token',
};

/** Checks the shape and checksum only: an untrusted hint of kind and route, never proof of anything. */
export function parseToken(token: string): { ok: true; token: ParsedToken } | { ok: false; reason: TokenParseFailure } {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'too_long' };
  const m = SHAPE.exec(token);
  if (!m) {
    return { ok: false, reason: /^(svc_(pat|sa)_v2_|svc_sk_v1_|wc_v0_)/.test(token) ? 'malformed' : 'unknown_prefix' };
  }
  const [, prefix, region, cell, , checksum] = m;
  const body = token.slice(0, token.length - CHECKSUM_LENGTH);
  if (base62(BigInt(crc32(body)), CHECKSUM_LENGTH) !== checksum) return { ok: false, reason: 'bad_checksum' };
  return { ok: true, token: { family: FAMILY_BY_PREFIX[prefix!]!, region: region!, cell: cell! } };
}

/** The stored verifier: HMAC-SHA-256 of the whole token keyed with the server secret. */
export function verifierFor(serverSecret: string, token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHmac('sha256', serverSecret).update(token, 'utf8').digest());
}

/** Constant-time comparison of a stored verifier with the one computed from a presented token. */
export function verifiersEqual(stored: Uint8Array, presented: Uint8Array): boolean {
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}

/** An opaque URL-safe token without routing hints (calendar feed tokens travel in a URL path). */
export function generateFeedToken(): string {
  return base62(BigInt(`0x${randomBytes(32).toString('hex')}`), SECRET_LENGTH);
}

const PUBLIC_ID_PREFIX: Record<CredentialKind, string> = { personal_access_token: 'pat', service_account: 'sac', legacy_v1: 'lgc' };

/** The credential's public identifier (what clients and audit events use to tell credentials apart). */
export function generatePublicId(kind: CredentialKind): string {
  return `${PUBLIC_ID_PREFIX[kind]}_${base62(BigInt(`0x${randomBytes(16).toString('hex')}`), 22)}`;
}
