import { restoreProcedure } from '../kernel/archival.js';
import { archivableDocument } from './view.js';

/** `POST /v1/documents/{id}/restore`: clears `archived_at` (no change when not archived); writes `document.restored` (without the content). */
export const restoreDocument = restoreProcedure('restoreDocument', archivableDocument);
