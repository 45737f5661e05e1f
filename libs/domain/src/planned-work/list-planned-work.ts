import { z } from 'zod';
import { listPlannedWorkPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { type PlannedWorkView, plannedWorkView } from './view.js';

/** The longest window a list may ask for (registry: "`from` and `to` … span at most 366 days"). */
export const MAX_PLANNED_WORK_SPAN_DAYS = 366;

const id = z.string().min(1).max(64);

export const listPlannedWorkInput = z
  .object({
    ...pageInput,
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    memberId: id.optional(),
    projectId: id.optional(),
    taskId: id.optional(),
  })
  .strict();

const badRange = (message: string) => new DomainError('validation_failed', message, [{ pointer: '', parameter: 'to', message }]);

/**
 * `GET /v1/planned-work`: windows that overlap [from, to) (bounded: at most 366 days), optionally of one
 * member, task or project, on unarchived tasks, in id (creation) order with cursor pages. Planned work is part of
 * its task: only the windows of tasks the caller may see (a service account's task grants, project sharing; in the
 * statement). An id filter
 * that is no UUID names nothing: an empty page.
 */
export const listPlannedWork = defineProcedure('listPlannedWork', listPlannedWorkInput, async (op, input): Promise<{ items: PlannedWorkView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const { cursor, limit, memberId, projectId, taskId } = input;
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (to <= from) throw badRange('to must be after from');
  if (to.getTime() - from.getTime() > MAX_PLANNED_WORK_SPAN_DAYS * 24 * 3600 * 1000) throw badRange(`from and to may span at most ${MAX_PLANNED_WORK_SPAN_DAYS} days`);
  if ([memberId, projectId, taskId].some((v) => v !== undefined && !isUuid(v))) return { items: [], limit, nextCursor: null };
  const filter = {
    from,
    to,
    ...(memberId === undefined ? {} : { memberId: memberId.toLowerCase() }),
    ...(projectId === undefined ? {} : { projectId: projectId.toLowerCase() }),
    ...(taskId === undefined ? {} : { taskId: taskId.toLowerCase() }),
  };
  const scope = {
    workspaceId: auth.workspaceId,
    list: 'listPlannedWork',
    filter: { from: from.toISOString(), to: to.toISOString(), memberId: filter.memberId, projectId: filter.projectId, taskId: filter.taskId },
  };
  const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listPlannedWorkPage(op.database, auth.workspaceId, filter, afterId, take, viewerOf(auth)));
  return { items: page.items.map(plannedWorkView), limit, nextCursor: page.nextCursor };
});
