import { archiveProcedure } from '../kernel/archival.js';
import { archivableFile } from './view.js';

/** `DELETE /v1/files/{id}`: archives (sets `archived_at`; the bytes stay); again changes nothing. Writes `file.archived`. */
export const archiveFile = archiveProcedure('archiveFile', archivableFile);
