import { restoreProcedure } from '../kernel/archival.js';
import { archivableTimeEntry } from './view.js';

/** `POST /v1/time-entries/{id}/restore`: clears `archived_at` (idempotent). Writes `time_entry.restored`. */
export const restoreTimeEntry = restoreProcedure('restoreTimeEntry', archivableTimeEntry);
