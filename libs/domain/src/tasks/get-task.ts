import { z } from 'zod';
import { findTask } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { authInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { taskIdOf, taskNotFound, type TaskView, taskView } from './view.js';

export const getTaskInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/tasks/{id}`: one task of the workspace (archived ones too); another workspace's is 404. */
export const getTask = defineProcedure('getTask', getTaskInput, async (ctx, { auth, id }): Promise<TaskView> => {
  requireGrant(auth, 'task', id, 'read', 'task');
  const row = await findTask(ctx.database, auth.workspaceId, taskIdOf(id), viewerOf(auth));
  if (!row) throw taskNotFound();
  return taskView(row);
});
