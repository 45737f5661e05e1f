import { archiveProcedure } from '../kernel/archival.js';
import { archivableDocument } from './view.js';

/** `DELETE /v1/documents/{id}`: archives (sets `archived_at`, never deletes); again changes nothing. Writes `document.archived`. */
export const archiveDocument = archiveProcedure('archiveDocument', archivableDocument);
