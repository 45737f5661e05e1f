import { Transform, type Readable } from 'node:stream';
import { contentDisposition } from '@workcell/storage';
import { claimUpload, findDownloadGrant, type FileRecord, releaseUploadClaim } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { TOKEN, tokenHash } from './capabilities.js';
import { uploadExpired } from './complete-file-upload.js';
import { fileNotAvailable } from './create-file-download-intent.js';
import { storageOf } from './intents.js';

/**
 * The local storage driver's transfers, behind the capability URLs api-v1 serves (docs/files.md): no bearer
 * credential, the URL's token is the capability. Bytes flow as streams from the request to a temporary file and
 * from the stored file to the response, never held whole.
 */

const urlNotFound = (): DomainError => new DomainError('not_found', 'no such transfer URL');

/** The hash of a well-formed token of a workspace's URL, or 404 for anything else (nothing about it is revealed). */
function capability(workspaceId: string, token: string): { workspaceId: string; hash: Uint8Array<ArrayBuffer> } {
  if (!isUuid(workspaceId) || !TOKEN.test(token)) throw urlNotFound();
  return { workspaceId: workspaceId.toLowerCase(), hash: tokenHash(token) };
}

export interface IncomingUpload {
  readonly workspaceId: string;
  readonly token: string;
  readonly contentType: string | undefined;
  readonly contentLength: string | undefined;
  readonly body: Readable;
}

/** A pass-through that fails once more than `limit` bytes went through (a body longer than its declaration). */
function atMost(limit: bigint): Transform {
  let seen = 0n;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += BigInt(chunk.length);
      done(seen > limit ? new DomainError('validation_failed', 'the body is longer than the declared size') : null, chunk);
    },
  });
}

/**
 * `PUT {uploadUrl}`: claims the reservation's one upload atomically (of two concurrent PUTs one wins, the other
 * gets 409 `upload_already_received`), checks Content-Length and Content-Type against the intent (400 with the
 * header named), and streams the body into storage. After completion 409 `upload_completed`; after expiry 410
 * `upload_expired`. A failed or refused upload gives the claim back, so the URL takes another until it expires.
 */
export async function receiveUpload(ctx: ProcedureContext, upload: IncomingUpload): Promise<void> {
  const { workspaceId, hash } = capability(upload.workspaceId, upload.token);
  const claim = await claimUpload(ctx.database, workspaceId, hash, ctx.now());
  if ('refused' in claim) {
    if (claim.refused === 'unknown') throw urlNotFound();
    if (claim.refused === 'expired') throw uploadExpired();
    if (claim.refused === 'completed') throw new DomainError('upload_completed', 'this upload was completed; create a new upload intent for another file');
    throw new DomainError('upload_already_received', 'this upload URL holds an upload already (or one is in progress); complete the intent');
  }
  const { claimed, file } = claim;
  try {
    assertDeclaredHeaders(file, upload);
    await storageOf(ctx).write(file.storageKey, upload.body.pipe(atMost(file.sizeBytes)), { contentType: file.contentType, sizeBytes: Number(file.sizeBytes) });
  } catch (error) {
    await releaseUploadClaim(ctx.database, workspaceId, claimed.id);
    throw error;
  }
}

function assertDeclaredHeaders(file: FileRecord, upload: IncomingUpload): void {
  const issues = [];
  if (upload.contentLength === undefined || !/^\d+$/.test(upload.contentLength) || BigInt(upload.contentLength) !== file.sizeBytes) {
    issues.push({ pointer: '', parameter: 'Content-Length', message: `must be ${file.sizeBytes}, the size the upload intent declared` });
  }
  const mediaType = upload.contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== file.contentType.toLowerCase()) issues.push({ pointer: '', parameter: 'Content-Type', message: `must be ${file.contentType}, the type the upload intent declared` });
  if (issues.length > 0) throw new DomainError('validation_failed', 'the upload does not match its intent', issues);
}

export interface OutgoingDownload {
  readonly body: Readable;
  /**
   * The response headers: its type, length and download name, never stored by a cache, and never run by a browser
   * on the API's origin (an attachment, no sniffing, a sandboxing policy): the bytes are anyone's upload.
   */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * `GET {url}` of a download intent: the file's bytes as a stream, while the capability lasts (410
 * `download_expired` after) and the file is available and unarchived (409 `file_not_available`).
 */
export async function openDownload(ctx: ProcedureContext, workspaceId: string, token: string): Promise<OutgoingDownload> {
  const cap = capability(workspaceId, token);
  const grant = await findDownloadGrant(ctx.database, cap.workspaceId, cap.hash);
  if (!grant) throw urlNotFound();
  if (grant.expiresAt.getTime() <= ctx.now().getTime()) throw new DomainError('download_expired', 'this download URL expired; create a new download intent');
  if (grant.file.status !== 'available' || grant.file.archivedAt !== null) throw fileNotAvailable();
  const object = await storageOf(ctx).read(grant.file.storageKey);
  if (!object) throw fileNotAvailable();
  return {
    body: object.body,
    headers: {
      'content-type': grant.file.contentType,
      'content-length': String(object.sizeBytes),
      'content-disposition': contentDisposition(grant.file.name),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    },
  };
}
