import { type FileRecord, findFile, setFileArchived, type Db } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import type { Versioned } from '../kernel/versioned.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';

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
  return withArchivableFields(row, {
    name: row.name,
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
    checksumSha256: row.checksumSha256,
    status: row.status,
    uploadedBy: row.uploadedBy,
  });
}

export function versionedFile(row: FileRecord): Versioned<FileView> {
  return { resource: fileView(row), revision: row.revision };
}

export const fileNotFound = notFoundOf('file');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const fileIdOf = (raw: string): string => idOf(raw, fileNotFound);

export const findFileOr404 = (tx: Db, workspaceId: string, id: string): Promise<FileRecord> => foundOr(findFile(tx, workspaceId, id), fileNotFound);

/** How a file is archived and restored (kernel/archival.ts). */
export const archivableFile = archivable({ type: 'file', find: findFile, setArchived: setFileArchived, answer: versionedFile });
