import { z } from 'zod';
import { findTimeEntry } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { viewerOf } from '../kernel/visibility.js';
import { holdsBilling, timeEntryNotFound, type TimeEntryView, versionedTimeEntry } from './view.js';

export const getTimeEntryInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `GET /v1/time-entries/{id}`: one entry of the caller's workspace, archived or not (another workspace's, or one in a
 * project whose sharing hides it from the caller: 404).
 */
export const getTimeEntry = defineProcedure('getTimeEntry', getTimeEntryInput, async (op, { id }): Promise<Versioned<TimeEntryView>> => {
  const { auth } = op;
  requireGrant(auth, 'time_entry', id, 'read', 'time entry');
  const row = isUuid(id) ? await findTimeEntry(op.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw timeEntryNotFound();
  return versionedTimeEntry(row, holdsBilling(auth), op.now());
});
