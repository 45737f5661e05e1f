import { z } from 'zod';
import { insertTimeEntry } from '@workcell/db';
import { TimeEntryCreate } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { holdsBilling, resolveTimeEntry, timeEntryEventView, type TimeEntryView, versionedTimeEntry } from './view.js';

export const createTimeEntryInput = z.object({ ...TimeEntryCreate.shape }).strict();

/**
 * `POST /v1/time-entries`: a manual entry (with `endedAt` or `durationSeconds`) or a running timer (without
 * either). A member has at most one running timer: 409 `timer_already_running`, nothing written. Writes
 * `time_entry.created` (without the billing overlay) in the same transaction.
 */
export const createTimeEntry = defineProcedure('createTimeEntry', createTimeEntryInput, async (op, input): Promise<Versioned<TimeEntryView>> => {
  requireTypeGrant(op.auth, 'time_entry', 'write', 'time entries');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const values = await resolveTimeEntry(tx, auth, null, input, now);
    const row = await insertTimeEntry(tx, workspaceId, values, now);
    if (!row) throw new DomainError('timer_already_running', 'the member already has a running timer; stop it first');
    const result = versionedTimeEntry(row, holdsBilling(auth), now);
    await op.emit(tx, resourceEvent(op, { type: 'time_entry', id: row.id, action: 'created', view: { ...timeEntryEventView(row, now) }, at: now, result }));
    return result;
  });
});
