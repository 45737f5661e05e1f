import { type FileRecord, findFile, setFileArchived, type Db } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import { archivableFields, type ArchivableView } from '../kernel/base-view.js';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { Versioned } from '../kernel/versioned.js';

/**
 * Files (contract 5.3: "file metadata, lifecycle, short-lived private transfer intents"; docs/files.md). The API
 * never holds a file's bytes: clients send them to an upload URL and fetch them from a download URL, both
 * short-lived capabilities, and the service reads them only as a stream (completion's checksum).
 */

/** A file as the registry's File. */
export interface FileView extends ArchivableView {
  readonly name: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  readonly checksumSha256: string;
  readonly status: FileRecord['status'];
  readonly uploadedBy: string | null;
}

export function fileView(row: FileRecord): FileView {
  return {
    ...archivableFields(row),
    name: row.name,
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
    checksumSha256: row.checksumSha256,
    status: row.status,
    uploadedBy: row.uploadedBy,
  };
}

export function versionedFile(row: FileRecord): Versioned<FileView> {
  return { resource: fileView(row), revision: row.revision };
}

export const fileNotFound = (): DomainError => new DomainError('not_found', 'file not found');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export function fileIdOf(raw: string): string {
  if (!isUuid(raw)) throw fileNotFound();
  return raw.toLowerCase();
}

export async function findFileOr404(tx: Db, workspaceId: string, id: string): Promise<FileRecord> {
  const row = await findFile(tx, workspaceId, id);
  if (!row) throw fileNotFound();
  return row;
}

/** How a file is archived and restored (kernel/archival.ts). */
export const archivableFile = archivable({ type: 'file', find: findFile, setArchived: setFileArchived, answer: versionedFile });
