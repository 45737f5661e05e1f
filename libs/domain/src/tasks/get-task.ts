import { z } from 'zod';
import { findTask } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';

import { viewerOf } from '../kernel/visibility.js';
import { taskIdOf, taskNotFound, type TaskView, taskView } from './view.js';

export const getTaskInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/tasks/{id}`: one task of the workspace (archived ones too); another workspace's is 404. */
export const getTask = defineProcedure('getTask', getTaskInput, async (op, { id }): Promise<TaskView> => {
  const { auth } = op;
  requireGrant(auth, 'task', id, 'read', 'task');
  const row = await findTask(op.database, auth.workspaceId, taskIdOf(id), viewerOf(auth));
  if (!row) throw taskNotFound();
  return taskView(row);
});
