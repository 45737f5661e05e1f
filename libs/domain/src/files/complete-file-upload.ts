import { createHash } from 'node:crypto';
import { z } from 'zod';
import { completeFileUploadRows, type FileRecord, findFile, findUploadReservation, releaseUploadClaim } from '@workcell/db';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';

import { defineProcedure, type ProcedureContext } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { storageOf } from './intents.js';
import { fileNotFound, type FileView, versionedFile } from './view.js';

export const completeFileUploadInput = z.object({ id: z.string().max(64) }).strict();

const intentNotFound = (): DomainError => new DomainError('not_found', 'upload intent not found');
export const uploadExpired = (): DomainError => new DomainError('upload_expired', 'the upload reservation expired; create a new upload intent');

/**
 * What the stored bytes contradict of the intent's declaration (size, content type where the storage records one,
 * SHA-256), one issue per declared field. The object is read as a stream and hashed on the way: never held whole.
 */
async function verifyStoredBytes(ctx: ProcedureContext, file: FileRecord): Promise<FieldIssue[] | null> {
  const object = await storageOf(ctx).read(file.storageKey);
  if (!object) return null;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of object.body) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    hash.update(bytes);
  }
  const issues: FieldIssue[] = [];
  if (BigInt(size) !== file.sizeBytes) issues.push({ pointer: '/sizeBytes', message: `${size} bytes were stored, ${file.sizeBytes} were declared` });
  if (object.contentType !== null && object.contentType.toLowerCase() !== file.contentType.toLowerCase()) {
    issues.push({ pointer: '/contentType', message: 'the stored content type is not the declared one' });
  }
  if (hash.digest('hex') !== file.checksumSha256) issues.push({ pointer: '/checksumSha256', message: 'the SHA-256 of the stored bytes is not the declared one' });
  return issues;
}

/**
 * `POST /v1/file-upload-intents/{id}/complete`: verifies the stored bytes against the intent (size, content type,
 * SHA-256) and makes the file `available`, writing `file.uploaded` in that transaction (which completes a held
 * idempotency key). A completed intent answers its file again. Refusals: 410 `upload_expired` once the reservation
 * lapsed; 409 `upload_not_received` without stored bytes; 409 `upload_mismatch` with a pointer per contradicted
 * field, after which the bytes are removed and the upload URL takes a new upload until it expires.
 */
export const completeFileUpload = defineProcedure('completeFileUpload', completeFileUploadInput, async (op, input): Promise<Versioned<FileView>> => {
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw intentNotFound();
  const id = input.id.toLowerCase();
  const reservation = await findUploadReservation(op.database, workspaceId, id);
  if (!reservation) throw intentNotFound();
  requireGrant(auth, 'file', reservation.fileId, 'write', 'file');
  const file = await findFile(op.database, workspaceId, reservation.fileId);
  if (!file) throw fileNotFound();
  if (reservation.status === 'completed') return versionedFile(file);
  const started = op.now();
  if (reservation.status === 'expired' || reservation.expiresAt.getTime() <= started.getTime()) throw uploadExpired();
  const issues = await verifyStoredBytes(op, file);
  if (issues === null) throw new DomainError('upload_not_received', 'no bytes have been uploaded for this intent yet: PUT them to its uploadUrl');
  if (issues.length > 0) {
    await storageOf(op).remove(file.storageKey);
    await releaseUploadClaim(op.database, workspaceId, id);
    throw new DomainError('upload_mismatch', 'the uploaded bytes do not match the upload intent; they were removed: upload the declared bytes again', issues);
  }
  const now = op.now();
  return op.transaction(async (tx) => {
    if (!(await completeFileUploadRows(tx, workspaceId, id, file.id, now))) {
      // Completed meanwhile by a concurrent request (answer its file), or lapsed while the bytes were read.
      const again = await findUploadReservation(tx, workspaceId, id);
      if (again?.status === 'completed') return versionedFile((await findFile(tx, workspaceId, file.id))!);
      throw uploadExpired();
    }
    const row = (await findFile(tx, workspaceId, file.id))!;
    const result = versionedFile(row);
    await op.emit(tx, { aggregateType: 'file', aggregateId: row.id, eventType: 'file.uploaded', payload: { file: { ...result.resource }, requestId }, occurredAt: now, result });
    return result;
  });
});
