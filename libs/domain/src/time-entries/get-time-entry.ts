import { z } from 'zod';
import { findTimeEntry } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { authInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { holdsBilling, timeEntryNotFound, type TimeEntryView, versionedTimeEntry } from './view.js';

export const getTimeEntryInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/**
 * `GET /v1/time-entries/{id}`: one entry of the caller's workspace, archived or not (another workspace's, or one in a
 * project whose sharing hides it from the caller: 404).
 */
export const getTimeEntry = defineProcedure('getTimeEntry', getTimeEntryInput, async (ctx, { auth, id }): Promise<Versioned<TimeEntryView>> => {
  requireGrant(auth, 'time_entry', id, 'read', 'time entry');
  const row = isUuid(id) ? await findTimeEntry(ctx.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw timeEntryNotFound();
  return versionedTimeEntry(row, holdsBilling(auth), ctx.now());
});
