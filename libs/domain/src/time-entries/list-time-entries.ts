import { z } from 'zod';
import { listTimeEntriesPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { holdsBilling, type TimeEntryView, timeEntryView } from './view.js';

const timestamp = z.iso.datetime({ offset: true });

export const listTimeEntriesInput = z
  .object({
    ...pageInput,
    taskId: z.string().max(64).optional(),
    projectId: z.string().max(64).optional(),
    userId: z.string().max(64).optional(),
    startedFrom: timestamp.optional(),
    startedTo: timestamp.optional(),
  })
  .strict();

/**
 * `GET /v1/time-entries`: the workspace's unarchived time entries, oldest first, optionally of one task,
 * project or member, started in [startedFrom, startedTo), that the caller may see (grants and project sharing, in
 * the statement). Ids that are no UUIDs match nothing. `billing` appears only with time-entries:billing.
 */
export const listTimeEntries = defineProcedure(
  'listTimeEntries',
  listTimeEntriesInput,
  async (op, { cursor, limit, taskId, projectId, userId, startedFrom, startedTo }): Promise<{ items: TimeEntryView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const filter = {
      taskId: taskId?.toLowerCase(),
      projectId: projectId?.toLowerCase(),
      memberId: userId?.toLowerCase(),
      startedFrom: startedFrom === undefined ? undefined : new Date(startedFrom),
      startedTo: startedTo === undefined ? undefined : new Date(startedTo),
    };
    const scope = {
      workspaceId: auth.workspaceId,
      list: 'listTimeEntries',
      filter: { taskId: filter.taskId ?? null, projectId: filter.projectId ?? null, userId: filter.memberId ?? null, startedFrom: startedFrom ?? null, startedTo: startedTo ?? null },
    };
    const impossible = [taskId, projectId, userId].some((v) => v !== undefined && !isUuid(v));
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      impossible ? [] : listTimeEntriesPage(op.database, auth.workspaceId, filter, afterId, take, viewerOf(auth)),
    );
    const now = op.now();
    const withBilling = holdsBilling(auth);
    return { items: page.items.map((row) => timeEntryView(row, withBilling, now)), limit, nextCursor: page.nextCursor };
  },
);
