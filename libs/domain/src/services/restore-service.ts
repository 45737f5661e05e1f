import { restoreProcedure } from '../kernel/archival.js';
import { archivableService } from './view.js';

/** `POST /v1/services/{id}/restore`: clears `archived_at` (a no-op when not archived). Writes `service.restored`. */
export const restoreService = restoreProcedure('restoreService', archivableService);
