import { archiveProcedure } from '../kernel/archival.js';
import { archivableCallNote } from './view.js';

/** `DELETE /v1/call-notes/{id}`: archives the note (never deletes; no change when archived); writes `call_note.archived`. */
export const archiveCallNote = archiveProcedure('archiveCallNote', archivableCallNote);
