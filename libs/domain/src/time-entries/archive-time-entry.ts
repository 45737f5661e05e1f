import { archiveProcedure } from '../kernel/archival.js';
import { archivableTimeEntry } from './view.js';

/**
 * `DELETE /v1/time-entries/{id}`: archives the entry (sets `archived_at`, never deletes; lists leave it out,
 * get still shows it). Archiving an archived entry changes nothing. Writes `time_entry.archived`.
 */
export const archiveTimeEntry = archiveProcedure('archiveTimeEntry', archivableTimeEntry);
