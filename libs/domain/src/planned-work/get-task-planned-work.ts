import { z } from 'zod';
import { findScheduleTask, listTaskPlannedWork } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';

import { viewerOf } from '../kernel/visibility.js';
import { type TaskPlannedWorkView, taskPlannedWorkView } from './view.js';

export const getTaskPlannedWorkInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `GET /v1/tasks/{id}/planned-work`: the task's whole schedule and its version (archived tasks too). Planned
 * work has no grants of its own: it is part of its task, so a service account needs read on the task, and a task
 * the caller may not see (its project's sharing) is 404.
 */
export const getTaskPlannedWork = defineProcedure('getTaskPlannedWork', getTaskPlannedWorkInput, async (op, { id: rawId }): Promise<TaskPlannedWorkView> => {
  const { auth } = op;
  requireGrant(auth, 'task', rawId, 'read', 'task');
  const id = rawId.toLowerCase();
  if (!isUuid(id) || !(await findScheduleTask(op.database, auth.workspaceId, id, viewerOf(auth)))) throw new DomainError('not_found', 'task not found');
  return taskPlannedWorkView(id, await listTaskPlannedWork(op.database, auth.workspaceId, id));
});
