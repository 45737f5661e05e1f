import { z } from 'zod';
import { appendOutboxEvent, findCallNote, inTransaction, setCallNoteArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';

export const archiveCallNoteInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `DELETE /v1/call-notes/{id}`: archives the note (never deletes; no change when archived); writes `call_note.archived`. */
export const archiveCallNote = defineProcedure('archiveCallNote', archiveCallNoteInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'call_note', rawId, 'write', 'call note');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'call note not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findCallNote(tx, workspaceId, id))) throw new DomainError('not_found', 'call note not found');
    if (await setCallNoteArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'call_note', aggregateId: id, eventType: 'call_note.archived', payload: { callNoteId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
