import { restoreProcedure } from '../kernel/archival.js';
import { archivableCallNote } from './view.js';

/** `POST /v1/call-notes/{id}/restore`: clears `archived_at` (no change when not archived); writes `call_note.restored`. */
export const restoreCallNote = restoreProcedure('restoreCallNote', archivableCallNote);
