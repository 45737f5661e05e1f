import { z } from 'zod';
import { findTimeEntry } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { viewerOf } from '../kernel/visibility.js';
import { type TimeEntryBillingResource, versionedBilling } from './billing.js';
import { timeEntryNotFound } from './view.js';

export const getTimeEntryBillingInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/time-entries/{id}/billing` (time-entries:billing): billable state and rate of one entry. */
export const getTimeEntryBilling = defineProcedure('getTimeEntryBilling', getTimeEntryBillingInput, async (op, { id }): Promise<Versioned<TimeEntryBillingResource>> => {
  const { auth } = op;
  requireGrant(auth, 'time_entry', id, 'read', 'time entry');
  const row = isUuid(id) ? await findTimeEntry(op.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw timeEntryNotFound();
  return versionedBilling(row);
});
