import { z } from 'zod';
import { archivableFields, Name, patchOf, ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('files');

export const FILE_MAX_BYTES = 5 * 1024 * 1024 * 1024;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/).describe('Lower-case hex SHA-256 of the content.');
const ContentType = z.string().regex(/^[\w.+-]+\/[\w.+-]+$/).max(255);

export const File = z
  .object({
    ...archivableFields,
    name: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int().min(0),
    checksumSha256: z.string(),
    status: z.enum(['pending', 'available']),
    uploadedBy: ResourceId,
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

export const FileDownloadIntent = z
  .object({ fileId: ResourceId, url: z.string(), expiresAt: Timestamp })
  .meta({ id: 'FileDownloadIntent', description: 'A short-lived private download URL.' });

export const fileOperations = [
  f.list('listFiles', '/v1/files', { scopes: ['files:read'], query: { status: z.enum(['pending', 'available']).optional() }, item: File }),
  f.get('getFile', '/v1/files/{id}', { scopes: ['files:read'], data: File }),
  f.update('updateFile', '/v1/files/{id}', { scopes: ['files:write'], body: FileUpdate, data: File }),
  f.archive('archiveFile', '/v1/files/{id}', { scopes: ['files:write'] }),
  f.restore('restoreFile', '/v1/files/{id}/restore', { scopes: ['files:write'], data: File }),
  f.create('createFileUploadIntent', '/v1/file-upload-intents', {
    summary: 'Reserve a short-lived private upload',
    scopes: ['files:write'],
    body: FileUploadIntentCreate,
    data: FileUploadIntent,
  }),
  f.action('POST', 'completeFileUpload', '/v1/file-upload-intents/{id}/complete', {
    summary: 'Complete an upload and make the file available',
    description: 'Verifies size and checksum. An expired reservation yields 410; create a new upload intent.',
    scopes: ['files:write'],
    extraErrors: [410],
    data: File,
  }),
  f.action('POST', 'createFileDownloadIntent', '/v1/files/{id}/download-intents', {
    summary: 'Create a short-lived private download URL',
    scopes: ['files:read'],
    success: 201,
    data: FileDownloadIntent,
  }),
] satisfies readonly OperationDefinition[];
