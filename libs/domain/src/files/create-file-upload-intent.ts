import { z } from 'zod';
import { insertFileUpload, newFileIds } from '@workcell/db';
import { FileUploadIntentCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { capabilityToken, tokenHash } from './capabilities.js';
import type { StoredUploadIntent } from './intents.js';
import { fileView } from './view.js';

export const createFileUploadIntentInput = z.object({ ...FileUploadIntentCreate.shape }).strict();

/**
 * `POST /v1/file-upload-intents`: a `pending` file and the reservation of its one upload (declared size, content
 * type and SHA-256) until now + FILE_UPLOAD_INTENT_TTL_SECONDS. Only the upload token's hash is stored; the URL is
 * derived when answering (intents.ts). Writes `file.created` in the same transaction, which also completes a held
 * idempotency key with the stored intent, so a replay answers the same URL.
 */
export const createFileUploadIntent = defineProcedure('createFileUploadIntent', createFileUploadIntentInput, async (op, input): Promise<StoredUploadIntent> => {
  const { auth } = op;
  requireTypeGrant(auth, 'file', 'write', 'files');
  const workspaceId = auth.workspaceId;
  const now = op.now();
  const expiresAt = new Date(now.getTime() + op.config.files.uploadTtlMs);
  return op.transaction(async (tx) => {
    const { fileId, reservationId } = await newFileIds(tx);
    const token = capabilityToken(op.config, 'upload', workspaceId, reservationId);
    const { file } = await insertFileUpload(tx, workspaceId, {
      fileId,
      reservationId,
      name: input.name,
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      checksumSha256: input.checksumSha256,
      uploadedBy: auth.principal.id,
      credentialId: auth.credential.id,
      tokenHash: tokenHash(token),
      expiresAt,
    });
    const result: StoredUploadIntent = {
      id: reservationId,
      fileId,
      workspaceId,
      storageKey: file.storageKey,
      contentType: file.contentType,
      sizeBytes: input.sizeBytes,
      status: 'open',
      expiresAt: expiresAt.toISOString(),
    };
    await op.emit(tx, resourceEvent(op, { type: 'file', id: fileId, action: 'created', view: { ...fileView(file) }, at: now, result }));
    return result;
  });
});
