import { restoreProcedure } from '../kernel/archival.js';
import { archivableFile } from './view.js';

/** `POST /v1/files/{id}/restore`: clears `archived_at` (no change when not archived); writes `file.restored`. */
export const restoreFile = restoreProcedure('restoreFile', archivableFile);
