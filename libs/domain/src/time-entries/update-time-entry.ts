import { z } from 'zod';
import { findTimeEntry, updateTimeEntryIfRevision } from '@workcell/db';
import { TimeEntryCreate, TimeEntryUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { requireResourceAccess } from '../kernel/visibility.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { findTimeEntryOr404, holdsBilling, resolveTimeEntry, timeEntryIdOf, timeEntryEventView, type TimeEntryView, versionedTimeEntry } from './view.js';

export const updateTimeEntryInput = z.object({ id: z.string().max(64), ...TimeEntryUpdate.shape }).strict();

/**
 * `PATCH /v1/time-entries/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale): the
 * given attributes, validated on the resulting entry (a running timer cannot be edited into an invalid range;
 * `endedAt` stops it; a stopped entry cannot be restarted). Writes `time_entry.updated` in the same transaction.
 */
export const updateTimeEntry = defineProcedure('updateTimeEntry', updateTimeEntryInput, async (op, input): Promise<Versioned<TimeEntryView>> => {
  requireGrant(op.auth, 'time_entry', input.id, 'write', 'time entry');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = timeEntryIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    // Sharing: the entry's project now (its own, else its task's) must be one the caller may change; resolveTimeEntry checks the one it moves to.
    await requireResourceAccess(tx, auth, 'time_entry', id, 'write', 'time entry');
    const current = await findTimeEntryOr404(tx, workspaceId, id);
    const values = await resolveTimeEntry(tx, auth, current, input, now);
    const outcome = await updateTimeEntryIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), values);
    if (outcome !== 'updated') throw casFailure(outcome, 'time entry');
    const row = (await findTimeEntry(tx, workspaceId, id))!;
    const changed = Object.keys(timeEntryAttributesOf(input));
    await op.emit(tx, resourceEvent(op, { type: 'time_entry', id, action: 'updated', view: { ...timeEntryEventView(row, now) }, changed, at: now }));
    return versionedTimeEntry(row, holdsBilling(auth), now);
  });
});

function timeEntryAttributesOf(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => k in TimeEntryCreate.shape && v !== undefined));
}
