import { z } from 'zod';
import { inTransaction, insertTask, newTask } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import { writeInput } from '../roles/permission-model.js';
import { assertTaskReferences, namesReferences, taskAttributes, taskChanges, type TaskView, taskView } from './view.js';

const id = z.string().min(1).max(64);

export const createTaskInput = z.object({ ...writeInput, ...taskAttributes, projectId: id.nullable().optional(), listId: id.nullable().optional() }).strict();

/**
 * `POST /v1/tasks`: a new open task (revision 1) and its `task.created` event, written together by one statement.
 * A body naming other resources is checked in a transaction with that statement (the assignee's row stays
 * locked until commit); a body naming none needs no transaction at all.
 */
export const createTask = defineProcedure('createTask', createTaskInput, async (ctx, input): Promise<TaskView> => {
  requireTypeGrant(input.auth, 'task', 'write', 'tasks');
  const { auth, requestId, ...attributes } = input;
  const workspaceId = auth.workspaceId;
  const now = ctx.now();
  const changes = taskChanges(attributes);
  const task = newTask(workspaceId, { ...changes, title: attributes.title, tagIds: changes.tagIds ?? [] }, now);
  const view = taskView(task);
  const event = { workspaceId, aggregateType: 'task', aggregateId: task.id, eventType: 'task.created', payload: { task: { ...view }, requestId }, occurredAt: now };
  if (!namesReferences(attributes)) {
    await insertTask(ctx.database, task, event);
    return view;
  }
  return inTransaction(ctx.database, async (tx) => {
    await assertTaskReferences(tx, workspaceId, attributes);
    await insertTask(tx, task, event);
    return view;
  });
});
