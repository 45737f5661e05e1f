import { z } from 'zod';
import { appendOutboxEvent, inTransaction, setTimeEntryArchived } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';
import { findTimeEntryOr404, timeEntryIdOf } from './view.js';

export const archiveTimeEntryInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/time-entries/{id}`: archives the entry (sets `archived_at`, never deletes; lists leave it out,
 * get still shows it). Archiving an archived entry changes nothing. Writes `time_entry.archived`.
 */
export const archiveTimeEntry = defineProcedure('archiveTimeEntry', archiveTimeEntryInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'time_entry', rawId, 'write', 'time entry');
  const workspaceId = auth.workspaceId;
  const id = timeEntryIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findTimeEntryOr404(tx, workspaceId, id);
    if (await setTimeEntryArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'time_entry', aggregateId: id, eventType: 'time_entry.archived', payload: { timeEntryId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
