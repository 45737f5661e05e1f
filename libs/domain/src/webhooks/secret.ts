import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { AppConfig } from '@workcell/config';

/**
 * Signing secrets of v2 webhooks (Standard Webhooks format `whsec_` + base64 of 32 random bytes). The engine
 * needs the secret itself to sign, so it is stored encrypted: AES-256-GCM under a key derived by HKDF-SHA256 from
 * CREDENTIAL_SECRET with its own info label (no new secret to manage; a different label than any other use, so
 * the derived key is independent). The workspace id is bound as associated data, so a ciphertext copied into
 * another workspace's row does not decrypt. `secret_key_id` names the derivation, for a later key rotation.
 */

export const WEBHOOK_SECRET_KEY_ID = 'hkdf-sha256:credential-secret:webhook-signing:v1';
const INFO = 'workcell webhook signing secret v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The derived key per CREDENTIAL_SECRET: HKDF on every delivery attempt cost the worker more than the signing. */
const KEYS = new Map<string, Buffer>();
function keyOf(config: AppConfig): Buffer {
  let key = KEYS.get(config.credentialSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', config.credentialSecret, Buffer.alloc(0), INFO, 32));
    KEYS.set(config.credentialSecret, key);
  }
  return key;
}

export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** iv ‖ tag ‖ ciphertext. */
export function encryptSigningSecret(config: AppConfig, workspaceId: string, secret: string): { ciphertext: Buffer; keyId: string } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  cipher.setAAD(Buffer.from(workspaceId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return { ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]), keyId: WEBHOOK_SECRET_KEY_ID };
}

export function decryptSigningSecret(config: AppConfig, workspaceId: string, stored: { ciphertext: Uint8Array; keyId: string }): string {
  if (stored.keyId !== WEBHOOK_SECRET_KEY_ID) throw new Error(`unknown webhook secret key id ${stored.keyId}`);
  const data = Buffer.from(stored.ciphertext);
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), data.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(workspaceId));
  decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
