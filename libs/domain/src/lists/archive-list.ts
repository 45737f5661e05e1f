import { archiveProcedure } from '../kernel/archival.js';
import { archivableList } from './view.js';

/**
 * `DELETE /v1/lists/{id}`: archives the list (sets `archived_at`, never deletes; lists leave it out, get still
 * shows it). Archiving an archived list changes nothing. Writes `list.archived` in the same transaction.
 */
export const archiveList = archiveProcedure('archiveList', archivableList);
