import { z } from 'zod';
import { appendOutboxEvent, findTimeEntry, inTransaction, setTimeEntryArchived } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { findTimeEntryOr404, holdsBilling, timeEntryIdOf, timeEntryEventView, type TimeEntryView, versionedTimeEntry } from './view.js';

export const restoreTimeEntryInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `POST /v1/time-entries/{id}/restore`: clears `archived_at` (idempotent). Writes `time_entry.restored`. */
export const restoreTimeEntry = defineProcedure('restoreTimeEntry', restoreTimeEntryInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<TimeEntryView>> => {
  requireGrant(auth, 'time_entry', rawId, 'write', 'time entry');
  const workspaceId = auth.workspaceId;
  const id = timeEntryIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findTimeEntryOr404(tx, workspaceId, id);
    const restored = await setTimeEntryArchived(tx, workspaceId, id, null);
    const row = (await findTimeEntry(tx, workspaceId, id))!;
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'time_entry', aggregateId: id, eventType: 'time_entry.restored', payload: { timeEntry: { ...timeEntryEventView(row, now) }, requestId }, occurredAt: now });
    }
    return versionedTimeEntry(row, holdsBilling(auth), now);
  });
});
