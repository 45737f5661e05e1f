import type { FileStorage } from '@workcell/storage';
import { fileStorage } from '@workcell/storage';
import type { ProcedureContext } from '../kernel/procedure.js';
import { transferUrl } from './capabilities.js';

/**
 * An upload intent as its procedure stores it (the idempotent replay's result): everything but the URL, which
 * is derived again each time it is answered (uploadIntentView), so no capability is ever stored.
 */
export interface StoredUploadIntent {
  readonly id: string;
  readonly fileId: string;
  readonly workspaceId: string;
  readonly storageKey: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  readonly status: 'open' | 'completed' | 'expired';
  readonly expiresAt: string;
}

/** The registry's FileUploadIntent. */
export interface UploadIntentView {
  readonly id: string;
  readonly fileId: string;
  readonly uploadUrl: string;
  readonly method: 'PUT';
  readonly requiredHeaders: Record<string, string>;
  readonly status: 'open' | 'completed' | 'expired';
  readonly expiresAt: string;
}

export const storageOf = (ctx: ProcedureContext): FileStorage => fileStorage(ctx.config.files);

/**
 * The answer of createFileUploadIntent: the stored intent with its upload URL (the local driver's capability URL
 * on api-v1, or the S3 driver's presigned PUT) and the headers the PUT must carry.
 */
export async function uploadIntentView(ctx: ProcedureContext, intent: StoredUploadIntent): Promise<UploadIntentView> {
  const storage = storageOf(ctx);
  const expiresAt = new Date(intent.expiresAt);
  const presigned = await storage.presignUpload(intent.storageKey, { contentType: intent.contentType, sizeBytes: intent.sizeBytes, expiresAt, now: ctx.now() });
  return {
    id: intent.id,
    fileId: intent.fileId,
    uploadUrl: presigned ?? transferUrl(ctx.config, 'upload', intent.workspaceId, intent.id),
    method: 'PUT',
    requiredHeaders: { 'Content-Type': intent.contentType, 'Content-Length': String(intent.sizeBytes) },
    status: intent.status === 'open' && expiresAt.getTime() <= ctx.now().getTime() ? 'expired' : intent.status,
    expiresAt: intent.expiresAt,
  };
}

/** A download intent as its procedure stores it (without the URL, derived again by downloadIntentView). */
export interface StoredDownloadIntent {
  readonly id: string;
  readonly fileId: string;
  readonly workspaceId: string;
  readonly storageKey: string;
  readonly contentType: string;
  readonly fileName: string;
  readonly expiresAt: string;
}

/** The registry's FileDownloadIntent. */
export interface DownloadIntentView {
  readonly fileId: string;
  readonly url: string;
  readonly expiresAt: string;
}

export async function downloadIntentView(ctx: ProcedureContext, intent: StoredDownloadIntent): Promise<DownloadIntentView> {
  const expiresAt = new Date(intent.expiresAt);
  const presigned = await storageOf(ctx).presignDownload(intent.storageKey, { contentType: intent.contentType, fileName: intent.fileName, expiresAt, now: ctx.now() });
  return { fileId: intent.fileId, url: presigned ?? transferUrl(ctx.config, 'download', intent.workspaceId, intent.id), expiresAt: intent.expiresAt };
}
