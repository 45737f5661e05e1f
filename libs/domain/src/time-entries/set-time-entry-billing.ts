import { z } from 'zod';
import { findTimeEntry, setTimeEntryBillingIfRevision } from '@workcell/db';
import { TimeEntryBillingSet } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { requireResourceAccess } from '../kernel/visibility.js';
import { type TimeEntryBillingResource, versionedBilling } from './billing.js';
import { timeEntryIdOf } from './view.js';

export const setTimeEntryBillingInput = z.object({ id: z.string().max(64), ...TimeEntryBillingSet.shape }).strict();

/**
 * `PUT /v1/time-entries/{id}/billing` (time-entries:billing; compare-and-set on the entry's version, 409
 * version_conflict when stale): replaces billable state and rate. Writes `time_entry.billing_set`.
 */
export const setTimeEntryBilling = defineProcedure('setTimeEntryBilling', setTimeEntryBillingInput, async (op, input): Promise<Versioned<TimeEntryBillingResource>> => {
  requireGrant(op.auth, 'time_entry', input.id, 'write', 'time entry');
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  const id = timeEntryIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    // Sharing: changing an entry changes its project (its own, else its task's): editor or manager.
    await requireResourceAccess(tx, auth, 'time_entry', id, 'write', 'time entry');
    const outcome = await setTimeEntryBillingIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), { billable: input.billable, rate: input.billingRate });
    if (outcome !== 'updated') throw casFailure(outcome, 'time entry');
    const result = versionedBilling((await findTimeEntry(tx, workspaceId, id))!);
    await op.emit(tx, {
      aggregateType: 'time_entry',
      aggregateId: id,
      eventType: 'time_entry.billing_set',
      payload: { billing: { ...result.resource }, requestId },
      occurredAt: now,
    });
    return result;
  });
});
