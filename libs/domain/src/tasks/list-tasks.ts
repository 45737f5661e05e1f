import { z } from 'zod';
import { listTasksPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { type TaskView, taskView } from './view.js';

const id = z.string().min(1).max(64);

export const listTasksInput = z
  .object({
    ...pageInput,
    projectId: id.optional(),
    listId: id.optional(),
    assigneeId: id.optional(),
    status: z.enum(['open', 'completed']).optional(),
    updatedSince: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/** `GET /v1/tasks`: the workspace's unarchived tasks in id (creation) order, filtered. */
export const listTasks = defineProcedure('listTasks', listTasksInput, async (op, input): Promise<{ items: TaskView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const { cursor, limit, projectId, listId, assigneeId, status, updatedSince } = input;
  // An id filter that is no UUID names no task: an empty page, without asking the database.
  if ([projectId, listId, assigneeId].some((v) => v !== undefined && !isUuid(v))) return { items: [], limit, nextCursor: null };
  const filter = {
    ...(projectId === undefined ? {} : { projectId: projectId.toLowerCase() }),
    ...(listId === undefined ? {} : { listId: listId.toLowerCase() }),
    ...(assigneeId === undefined ? {} : { assigneeMemberId: assigneeId.toLowerCase() }),
    ...(status === undefined ? {} : { status }),
    ...(updatedSince === undefined ? {} : { updatedSince: new Date(updatedSince) }),
  };
  const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listTasks', filter: { projectId, listId, assigneeId, status, updatedSince } }, { cursor, limit }, (afterId, take) =>
    listTasksPage(op.database, auth.workspaceId, filter, afterId, take, viewerOf(auth)),
  );
  return { items: page.items.map(taskView), limit, nextCursor: page.nextCursor };
});
