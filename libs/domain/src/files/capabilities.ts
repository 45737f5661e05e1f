import { createHash, createHmac } from 'node:crypto';
import type { AppConfig } from '@workcell/config';

/**
 * The capability tokens of file transfers (docs/files.md). A token is the HMAC-SHA256 of the intent's id under the
 * cell's CREDENTIAL_SECRET (256 bits, indistinguishable from random to anyone without the secret), so the service
 * can give the same URL again (an idempotent replay of the intent) without storing it: the database holds only
 * the token's SHA-256, which the transfer route looks up. The URL names the workspace too, so the lookup stays in
 * one tenant's rows.
 */

export type TransferKind = 'upload' | 'download';

/** The path prefix of the transfer routes api-v1 serves for the local storage driver (outside the registry). */
export const FILE_TRANSFER_PREFIX = '/v1/file-transfers';

export function capabilityToken(config: AppConfig, kind: TransferKind, workspaceId: string, intentId: string): string {
  return createHmac('sha256', config.credentialSecret).update(`workcell file ${kind}\n${workspaceId}\n${intentId}`).digest('base64url');
}

/** The stored form of a token: its SHA-256. */
export function tokenHash(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(token).digest());
}

/** A token as the routes accept it: 43 base64url characters (anything else names nothing). */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The path of a transfer capability: `/v1/file-transfers/{workspaceId}/{uploads|downloads}/{token}`. */
export function transferPath(kind: TransferKind, workspaceId: string, token: string): string {
  return `${FILE_TRANSFER_PREFIX}/${workspaceId}/${kind}s/${token}`;
}

/** The capability URL under the cell's public v1 address (V1_BASE_URL). */
export function transferUrl(config: AppConfig, kind: TransferKind, workspaceId: string, intentId: string): string {
  return `${config.baseUrls.v1}${transferPath(kind, workspaceId, capabilityToken(config, kind, workspaceId, intentId))}`;
}
