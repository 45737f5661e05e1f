import { z } from 'zod';
import { listTaskRecurrencesPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { taskRecurrenceView, type TaskRecurrenceView } from './view.js';

export const listTaskRecurrencesInput = z.object({ ...pageInput, templateTaskId: z.string().max(64).optional(), status: z.enum(['active', 'paused', 'ended']).optional() }).strict();

/**
 * `GET /v1/task-recurrences`: the workspace's unarchived series, oldest first, optionally of one template task
 * and/or in one status, that the caller may see: a series follows its template task (a service account's task grants,
 * the sharing of the task's project; in the statement).
 */
export const listTaskRecurrences = defineProcedure(
  'listTaskRecurrences',
  listTaskRecurrencesInput,
  async (op, { cursor, limit, templateTaskId, status }): Promise<{ items: TaskRecurrenceView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const taskId = templateTaskId?.toLowerCase();
    const scope = { workspaceId: auth.workspaceId, list: 'listTaskRecurrences', filter: { templateTaskId: taskId ?? null, status: status ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      taskId !== undefined && !isUuid(taskId) ? [] : listTaskRecurrencesPage(op.database, auth.workspaceId, { taskId, state: status }, afterId, take, viewerOf(auth)),
    );
    return { items: page.items.map(taskRecurrenceView), limit, nextCursor: page.nextCursor };
  },
);
