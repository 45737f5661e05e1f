import { z } from 'zod';
import { archivableFields, Name, patchOf, ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('files');

export const FILE_MAX_BYTES = 5 * 1024 * 1024 * 1024;

const Sha256 = z
  .string()
  .max(64)
  .regex(/^[0-9a-f]{64}$/)
  .describe('Lower-case hex SHA-256 of the content.');
const ContentType = z
  .string()
  .regex(/^[\w.+-]+\/[\w.+-]+$/)
  .max(255);

export const FILE_STATUSES = ['pending', 'available', 'expired'] as const;
const FileStatus = z
  .enum(FILE_STATUSES)
  .describe('`pending` until its upload is completed and verified, then `available`; `expired` when its upload reservation lapsed first (it never becomes available: create a new upload intent).');

export const File = z
  .object({
    ...archivableFields,
    name: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int().min(0),
    checksumSha256: z.string(),
    status: FileStatus,
    uploadedBy: ResourceId.nullable().describe('The member or service account whose credential created the upload intent.'),
  })
  .meta({ id: 'File', description: 'Metadata of a private file.' });

export const FileUpdate = patchOf(z.strictObject({ name: Name }), 'FileUpdate', 'Mutable file metadata.');

export const FileUploadIntentCreate = z
  .strictObject({ name: Name, contentType: ContentType, sizeBytes: z.number().int().min(1).max(FILE_MAX_BYTES), checksumSha256: Sha256 })
  .meta({ id: 'FileUploadIntentCreate', description: 'The file to upload.' });

export const FileUploadIntent = z
  .object({
    id: ResourceId,
    fileId: ResourceId,
    uploadUrl: z.string().describe('Short-lived URL; PUT the bytes with `requiredHeaders`.'),
    method: z.literal('PUT'),
    requiredHeaders: z.record(z.string(), z.string()),
    status: z.enum(['open', 'completed', 'expired']),
    expiresAt: Timestamp.describe('After this instant uploads get 410 and a new intent is needed.'),
  })
  .meta({ id: 'FileUploadIntent', description: 'A short-lived private upload reservation.' });

export const FileDownloadIntent = z.object({ fileId: ResourceId, url: z.string(), expiresAt: Timestamp }).meta({ id: 'FileDownloadIntent', description: 'A short-lived private download URL.' });

export const fileOperations = [
  f.list('listFiles', '/v1/files', {
    description: 'The unarchived files of the workspace, oldest first, optionally of one status. A service account sees only the files its resource grants cover.',
    scopes: ['files:read'],
    query: { status: FileStatus.optional() },
    item: File,
  }),
  f.get('getFile', '/v1/files/{id}', { description: 'Metadata of one file, archived or not (never its bytes: create a download intent).', scopes: ['files:read'], data: File }),
  f.update('updateFile', '/v1/files/{id}', {
    description: 'Renames the file (the bytes, size, type and checksum never change). No precondition: the last writer wins. Writes `file.updated`.',
    scopes: ['files:write'],
    body: FileUpdate,
    data: File,
  }),
  f.archive('archiveFile', '/v1/files/{id}', {
    description: 'Archives the file (never deletes it or its bytes); an archived file is left out of lists and cannot be downloaded until restored. Writes `file.archived`.',
    scopes: ['files:write'],
  }),
  f.restore('restoreFile', '/v1/files/{id}/restore', { description: 'Clears `archivedAt`; no change when not archived. Writes `file.restored`.', scopes: ['files:write'], data: File }),
  f.create('createFileUploadIntent', '/v1/file-upload-intents', {
    summary: 'Reserve a short-lived private upload',
    description:
      'Creates a `pending` file and reserves one upload of exactly `sizeBytes` bytes of `contentType` until `expiresAt` (15 minutes by default, FILE_UPLOAD_INTENT_TTL_SECONDS). ' +
      'PUT the bytes to `uploadUrl` with `requiredHeaders` (no bearer credential: the URL is the capability), then call completeFileUpload. ' +
      'With the local storage driver the URL takes one upload at a time: a second PUT while one is stored answers 409 `upload_already_received`, one after completion 409 `upload_completed`, one after `expiresAt` 410 `upload_intent_expired` (create a new intent). ' +
      'With the S3 driver it is a presigned PUT that signs the size and type. The location names the file. Writes `file.created`.',
    scopes: ['files:write'],
    body: FileUploadIntentCreate,
    data: FileUploadIntent,
  }),
  f.action('POST', 'completeFileUpload', '/v1/file-upload-intents/{id}/complete', {
    summary: 'Complete an upload and make the file available',
    description:
      'Reads the stored bytes and checks their size, content type and SHA-256 against the intent before the file becomes `available` (writes `file.uploaded`); completing a completed intent answers the file again. ' +
      'No bytes stored yet: 409 `upload_not_received`. Bytes that differ: 409 `upload_mismatch` with a pointer to each declared field they contradict (`/sizeBytes`, `/contentType`, `/checksumSha256`); the bytes are removed and the upload URL takes a new upload until it expires. ' +
      'An expired reservation yields 410 `upload_intent_expired`; create a new upload intent.',
    scopes: ['files:write'],
    extraErrors: [410],
    data: File,
  }),
  f.action('POST', 'createFileDownloadIntent', '/v1/files/{id}/download-intents', {
    summary: 'Create a short-lived private download URL',
    description:
      'A URL that downloads the file without a bearer credential until `expiresAt` (5 minutes by default, FILE_DOWNLOAD_INTENT_TTL_SECONDS), as often as needed until then; after it a new intent is needed. ' +
      'Only an `available`, unarchived file can be downloaded: 409 `file_not_available` otherwise (a pending or expired file, or an archived one: restore it first).',
    scopes: ['files:read'],
    success: 201,
    noLocation: true,
    data: FileDownloadIntent,
  }),
] satisfies readonly OperationDefinition[];
