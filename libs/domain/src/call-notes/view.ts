import { type CallNoteRecord, findCallNote, setCallNoteArchived } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/** A call note as the registry's CallNote. */
export interface CallNoteView extends ArchivableView {
  readonly contactId: string;
  readonly authorId: string;
  readonly content: string;
  readonly occurredAt: string;
}

export function callNoteView(row: CallNoteRecord): CallNoteView {
  return withArchivableFields(row, {
    contactId: row.contactId,
    authorId: row.authorId,
    content: row.content,
    occurredAt: row.occurredAt.toISOString(),
  });
}

export function versionedCallNote(row: CallNoteRecord): Versioned<CallNoteView> {
  return { resource: callNoteView(row), revision: row.revision };
}

/** How a call note is archived and restored (kernel/archival.ts). */
export const archivableCallNote = archivable({ type: 'call_note', find: findCallNote, setArchived: setCallNoteArchived, answer: versionedCallNote });
