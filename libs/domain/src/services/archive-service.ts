import { archiveProcedure } from '../kernel/archival.js';
import { archivableService } from './view.js';

/**
 * `DELETE /v1/services/{id}`: archives the service (sets `archived_at`, never deletes; its rates are kept).
 * Archiving an archived one changes nothing. Writes `service.archived` in the same transaction.
 */
export const archiveService = archiveProcedure('archiveService', archivableService);
