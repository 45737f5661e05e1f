import { z } from 'zod';
import { completeHeldKey, findFile, insertDownloadIntent, newDownloadIntentId } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import { capabilityToken, tokenHash } from './capabilities.js';
import type { StoredDownloadIntent } from './intents.js';
import { fileIdOf, fileNotFound } from './view.js';

export const createFileDownloadIntentInput = z.object({ id: z.string().max(64) }).strict();

export const fileNotAvailable = (): DomainError => new DomainError('file_not_available', 'only an available, unarchived file can be downloaded (this one is pending, expired or archived)');

/**
 * `POST /v1/files/{id}/download-intents`: a download capability of an available, unarchived file until now +
 * FILE_DOWNLOAD_INTENT_TTL_SECONDS (409 `file_not_available` otherwise). Only the token's hash is stored; the URL
 * is derived when answering (intents.ts). Changes no resource, so it writes no event.
 */
export const createFileDownloadIntent = defineProcedure('createFileDownloadIntent', createFileDownloadIntentInput, async (op, input): Promise<StoredDownloadIntent> => {
  const { auth } = op;
  requireGrant(auth, 'file', input.id, 'read', 'file');
  const workspaceId = auth.workspaceId;
  const fileId = fileIdOf(input.id);
  const now = op.now();
  const expiresAt = new Date(now.getTime() + op.config.files.downloadTtlMs);
  return op.transaction(async (tx) => {
    const file = await findFile(tx, workspaceId, fileId);
    if (!file) throw fileNotFound();
    if (file.status !== 'available' || file.archivedAt !== null) throw fileNotAvailable();
    const id = await newDownloadIntentId(tx);
    await insertDownloadIntent(tx, workspaceId, { id, fileId, tokenHash: tokenHash(capabilityToken(op.config, 'download', workspaceId, id)), expiresAt });
    const result: StoredDownloadIntent = { id, fileId, workspaceId, storageKey: file.storageKey, contentType: file.contentType, fileName: file.name, expiresAt: expiresAt.toISOString() };
    // No event: completes a held idempotency key with the intent in this transaction (a replay answers the same URL).
    await completeHeldKey(tx, op.idempotencyKey, workspaceId, result);
    return result;
  });
});
