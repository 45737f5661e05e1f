import { revisionedColumns, setArchivedAt } from './revisioned-rows.js';
import type { Db } from './database.js';
import { inTransaction } from './transactions.js';
import type { Prisma } from './generated/prisma/client.js';
import type { FileStatus, UploadReservationStatus } from './generated/prisma/enums.js';
import { unarchivedPage } from './keyset.js';

/**
 * Files and their transfers (docs/files.md). A file row exists from its upload intent on (`pending`), becomes
 * `available` when its upload is completed and verified, or `expired` when its reservation lapsed first. Archive
 * never deletes. Capability tokens are never stored, only their SHA-256 (`token_hash`), always looked up within
 * one workspace. Every query is scoped by the workspace id.
 */

export type FileStatusValue = FileStatus;
export type UploadReservationStatusValue = UploadReservationStatus;

const select = {
  id: true,
  workspaceId: true,
  name: true,
  contentType: true,
  sizeBytes: true,
  checksumSha256: true,
  storageKey: true,
  status: true,
  uploadedBy: true,
  ...revisionedColumns,
} as const satisfies Prisma.FileSelect;

/** An interface, so that other projects' declarations name it; its enum columns in this layer's names. */
export interface FileRecord extends Readonly<Omit<Prisma.FileGetPayload<{ select: typeof select }>, 'status'>> {
  readonly status: FileStatusValue;
}

/** One file of the workspace, archived or not. */
export async function findFile(client: Db, workspaceId: string, id: string): Promise<FileRecord | null> {
  return client.prisma.file.findFirst({ where: { workspaceId, id }, select });
}

export interface FileFilter {
  readonly status?: FileStatusValue | undefined;
  /** A service account's granted file ids (null or absent: all). */
  readonly onlyIds?: readonly string[] | null;
}

/** One keyset page of the workspace's unarchived files in id order. */
export async function listFilesPage(client: Db, workspaceId: string, filter: FileFilter, afterId: string | undefined, take: number): Promise<FileRecord[]> {
  return client.prisma.file.findMany({ ...unarchivedPage(workspaceId, filter.status === undefined ? {} : { status: filter.status }, afterId, take, filter.onlyIds), select });
}

/** Two new UUIDv7 ids from the database (a file's and its reservation's), known before the rows are written. */
export async function newFileIds(tx: Db): Promise<{ fileId: string; reservationId: string }> {
  const [row] = await tx.prisma.$queryRaw<{ file_id: string; reservation_id: string }[]>`SELECT uuidv7()::text AS file_id, uuidv7()::text AS reservation_id`;
  return { fileId: row!.file_id, reservationId: row!.reservation_id };
}

export interface UploadReservationRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly fileId: string;
  readonly status: UploadReservationStatusValue;
  readonly expiresAt: Date;
  readonly uploadClaimedAt: Date | null;
  readonly completedAt: Date | null;
}

const reservationSelect = { id: true, workspaceId: true, fileId: true, status: true, expiresAt: true, uploadClaimedAt: true, completedAt: true } as const satisfies Prisma.FileUploadReservationSelect;

export interface NewFileUpload {
  readonly fileId: string;
  readonly reservationId: string;
  readonly name: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  readonly checksumSha256: string;
  readonly uploadedBy: string;
  readonly credentialId: string | null;
  readonly tokenHash: Uint8Array<ArrayBuffer>;
  readonly expiresAt: Date;
}

/** The storage key of a file: `<workspaceId>/<fileId>`. */
export const fileStorageKey = (workspaceId: string, fileId: string): string => `${workspaceId}/${fileId}`;

/** A pending file and its upload reservation. */
export async function insertFileUpload(tx: Db, workspaceId: string, upload: NewFileUpload): Promise<{ file: FileRecord; reservation: UploadReservationRecord }> {
  const file = await tx.prisma.file.create({
    data: {
      workspaceId,
      id: upload.fileId,
      name: upload.name,
      contentType: upload.contentType,
      sizeBytes: BigInt(upload.sizeBytes),
      checksumSha256: upload.checksumSha256,
      storageKey: fileStorageKey(workspaceId, upload.fileId),
      uploadedBy: upload.uploadedBy,
    },
    select,
  });
  const reservation = await tx.prisma.fileUploadReservation.create({
    data: { workspaceId, id: upload.reservationId, fileId: upload.fileId, tokenHash: upload.tokenHash, expiresAt: upload.expiresAt, createdByCredentialId: upload.credentialId },
    select: reservationSelect,
  });
  return { file, reservation };
}

/** A new name (last writer wins: the registry declares no precondition); false when the file is missing. */
export async function renameFile(tx: Db, workspaceId: string, id: string, name: string): Promise<boolean> {
  const { count } = await tx.prisma.file.updateMany({ where: { workspaceId, id }, data: { name, revision: { increment: 1 } } });
  return count === 1;
}

/** Sets or clears `archived_at`; false when the file is missing or already in that state. */
export function setFileArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.file, workspaceId, id, archivedAt);
}

export async function findUploadReservation(client: Db, workspaceId: string, id: string): Promise<UploadReservationRecord | null> {
  return client.prisma.fileUploadReservation.findFirst({ where: { workspaceId, id }, select: reservationSelect });
}

/** Why an upload to a capability URL cannot start (or null when it was claimed). */
export type UploadClaim = { readonly claimed: UploadReservationRecord; readonly file: FileRecord } | { readonly refused: 'unknown' | 'expired' | 'completed' | 'taken' };

/**
 * Claims the one upload of a reservation by its token's hash: one `UPDATE … WHERE upload_claimed_at IS NULL AND
 * status = 'pending' AND expires_at > now`, so of two concurrent uploads exactly one wins. A miss is told apart by
 * reading the row: unknown token, expired (by time or by the sweep), completed, or already taken by an upload.
 */
export async function claimUpload(database: Db, workspaceId: string, tokenHash: Uint8Array<ArrayBuffer>, now: Date): Promise<UploadClaim> {
  const prisma = database.prisma;
  const { count } = await prisma.fileUploadReservation.updateMany({
    where: { workspaceId, tokenHash, status: 'pending', expiresAt: { gt: now }, uploadClaimedAt: null },
    data: { uploadClaimedAt: now },
  });
  const row = await prisma.fileUploadReservation.findFirst({ where: { workspaceId, tokenHash }, select: { ...reservationSelect, file: { select } } });
  if (!row) return { refused: 'unknown' };
  if (count === 1) {
    const { file, ...claimed } = row;
    return { claimed, file };
  }
  if (row.status === 'completed') return { refused: 'completed' };
  if (row.status === 'expired' || row.expiresAt.getTime() <= now.getTime()) return { refused: 'expired' };
  return { refused: 'taken' };
}

/** Gives a reservation's upload back (the upload failed, or its bytes did not match at completion). */
export async function releaseUploadClaim(client: Db, workspaceId: string, reservationId: string): Promise<void> {
  await client.prisma.fileUploadReservation.updateMany({ where: { workspaceId, id: reservationId, status: 'pending' }, data: { uploadClaimedAt: null } });
}

/**
 * Completes a reservation and makes its file available: one conditional `UPDATE` of the reservation (still
 * pending and unexpired at `now`), then the file. False when the reservation was no longer open.
 */
export async function completeFileUploadRows(tx: Db, workspaceId: string, reservationId: string, fileId: string, now: Date): Promise<boolean> {
  const { count } = await tx.prisma.fileUploadReservation.updateMany({
    where: { workspaceId, id: reservationId, status: 'pending', expiresAt: { gt: now } },
    data: { status: 'completed', completedAt: now },
  });
  if (count !== 1) return false;
  await tx.prisma.file.updateMany({ where: { workspaceId, id: fileId, status: 'pending' }, data: { status: 'available', revision: { increment: 1 } } });
  return true;
}

export interface DownloadGrant {
  readonly file: FileRecord;
  readonly expiresAt: Date;
}

export async function insertDownloadIntent(tx: Db, workspaceId: string, intent: { id: string; fileId: string; tokenHash: Uint8Array<ArrayBuffer>; expiresAt: Date }): Promise<void> {
  await tx.prisma.fileDownloadIntent.create({ data: { workspaceId, id: intent.id, fileId: intent.fileId, tokenHash: intent.tokenHash, expiresAt: intent.expiresAt } });
}

/** A new UUIDv7 id from the database. */
export async function newDownloadIntentId(tx: Db): Promise<string> {
  const [row] = await tx.prisma.$queryRaw<{ id: string }[]>`SELECT uuidv7()::text AS id`;
  return row!.id;
}

/** The file a download capability names (with its expiry), or null for an unknown token. */
export async function findDownloadGrant(client: Db, workspaceId: string, tokenHash: Uint8Array<ArrayBuffer>): Promise<DownloadGrant | null> {
  const row = await client.prisma.fileDownloadIntent.findFirst({ where: { workspaceId, tokenHash }, select: { expiresAt: true, file: { select } } });
  return row ? { file: row.file, expiresAt: row.expiresAt } : null;
}

/**
 * Up to `limit` lapsed reservations (pending, `expires_at <= now`), locked `FOR UPDATE SKIP LOCKED` in the caller's
 * transaction: two workers sweeping at once split the work, so each reservation is expired exactly once.
 */
export async function lockLapsedReservations(tx: Db, now: Date, limit: number): Promise<{ workspaceId: string; id: string; fileId: string }[]> {
  const rows = await tx.prisma.$queryRaw<{ workspace_id: string; id: string; file_id: string }[]>`
    SELECT workspace_id::text, id::text, file_id::text FROM file_upload_reservations
    WHERE status = 'pending' AND expires_at <= ${now}::timestamptz
    ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  return rows.map((r) => ({ workspaceId: r.workspace_id, id: r.id, fileId: r.file_id }));
}

/** Marks a reservation expired and its file, when still pending, expired too: the file, or null when it was not pending. */
export async function expireUpload(tx: Db, workspaceId: string, reservationId: string, fileId: string): Promise<FileRecord | null> {
  await tx.prisma.fileUploadReservation.updateMany({ where: { workspaceId, id: reservationId, status: 'pending' }, data: { status: 'expired' } });
  const { count } = await tx.prisma.file.updateMany({ where: { workspaceId, id: fileId, status: 'pending' }, data: { status: 'expired', revision: { increment: 1 } } });
  return count === 1 ? findFile(tx, workspaceId, fileId) : null;
}

/**
 * Removes the bytes of up to `limit` expired files not yet cleared (`remove`, which must tolerate a missing object)
 * and marks them cleared, holding their rows `FOR UPDATE SKIP LOCKED` meanwhile: two workers never remove the same
 * file's bytes, and a worker stopped half-way leaves the rest for the next sweep (removal is idempotent).
 */
export async function clearExpiredFileBytes(database: Db, now: Date, limit: number, remove: (storageKey: string) => Promise<void>): Promise<number> {
  return inTransaction(
    database,
    async (tx) => {
      const due = await tx.prisma.$queryRaw<{ workspace_id: string; id: string; storage_key: string }[]>`
        SELECT workspace_id::text, id::text, storage_key FROM files
        WHERE status = 'expired' AND storage_cleared_at IS NULL
        ORDER BY updated_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
      for (const row of due) {
        await remove(row.storage_key);
        await tx.prisma.$executeRaw`UPDATE files SET storage_cleared_at = ${now}::timestamptz WHERE workspace_id = ${row.workspace_id}::uuid AND id = ${row.id}::uuid`;
      }
      return due.length;
    },
    { timeout: 60_000 },
  );
}

/** Deletes download capabilities that expired before `before` (they answer nothing but 410 by then). */
export async function purgeExpiredDownloadIntents(database: Db, before: Date): Promise<number> {
  const { count } = await database.prisma.fileDownloadIntent.deleteMany({ where: { expiresAt: { lt: before } } });
  return count;
}
