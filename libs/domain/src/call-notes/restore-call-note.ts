import { z } from 'zod';
import { appendOutboxEvent, findCallNote, inTransaction, setCallNoteArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { type CallNoteView, versionedCallNote } from './view.js';

export const restoreCallNoteInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `POST /v1/call-notes/{id}/restore`: clears `archived_at` (no change when not archived); writes `call_note.restored`. */
export const restoreCallNote = defineProcedure('restoreCallNote', restoreCallNoteInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<CallNoteView>> => {
  requireGrant(auth, 'call_note', rawId, 'write', 'call note');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'call note not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findCallNote(tx, workspaceId, id))) throw new DomainError('not_found', 'call note not found');
    const restored = await setCallNoteArchived(tx, workspaceId, id, null);
    const row = await findCallNote(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'call note not found');
    const result = versionedCallNote(row);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'call_note', aggregateId: id, eventType: 'call_note.restored', payload: { callNote: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
