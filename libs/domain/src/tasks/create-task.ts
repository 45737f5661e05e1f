import { z } from 'zod';
import { appendOutboxEvent, inTransaction, insertTask } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import { writeInput } from '../roles/permission-model.js';
import { assertTaskReferences, taskAttributes, taskChanges, type TaskView, taskView } from './view.js';

const id = z.string().min(1).max(64);

export const createTaskInput = z.object({ ...writeInput, ...taskAttributes, projectId: id.nullable().optional(), listId: id.nullable().optional() }).strict();

/** `POST /v1/tasks`: a new open task (revision 1); writes `task.created` in the same transaction. */
export const createTask = defineProcedure('createTask', createTaskInput, async (ctx, input): Promise<TaskView> => {
  requireTypeGrant(input.auth, 'task', 'write', 'tasks');
  const { auth, requestId, ...attributes } = input;
  const workspaceId = auth.workspaceId;
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await assertTaskReferences(tx, workspaceId, attributes);
    const changes = taskChanges(attributes);
    const row = await insertTask(tx, workspaceId, { ...changes, title: attributes.title, tagIds: changes.tagIds ?? [] }, now);
    const view = taskView(row, null);
    await appendOutboxEvent(tx, { workspaceId, aggregateType: 'task', aggregateId: row.id, eventType: 'task.created', payload: { task: { ...view }, requestId }, occurredAt: now });
    return view;
  });
});
