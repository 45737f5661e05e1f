import { z } from 'zod';
import { type Db, insertTask, newTask } from '@workcell/db';
import { TaskCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';

import { requireProjectAccess } from '../kernel/visibility.js';
import { assertTaskReferences, taskChanges, type TaskView, taskView } from './view.js';

export const createTaskInput = z.object({ ...TaskCreate.shape }).strict();

/**
 * `POST /v1/tasks`: a new open task (revision 1) and its `task.created` event, written together by one statement,
 * which is atomic by itself. The references of the body are checked first; only an assignee needs a transaction
 * around check and insert (its member row stays locked until commit, so its removal cannot slip in between). The
 * project, list and tag checks take no lock, so a transaction would add nothing to them but two round trips and a
 * longer hold on the workspace's event counter.
 */
export const createTask = defineProcedure('createTask', createTaskInput, async (op, input): Promise<TaskView> => {
  requireTypeGrant(op.auth, 'task', 'write', 'tasks');
  const { auth, requestId } = op;
  const attributes = input;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  const changes = taskChanges(attributes);
  const task = newTask(workspaceId, { ...changes, title: attributes.title, tagIds: changes.tagIds ?? [] }, now);
  const view = taskView(task);
  const event = op.event({ aggregateType: 'task', aggregateId: task.id, eventType: 'task.created', payload: { task: { ...view }, requestId }, occurredAt: now, result: view });
  const write = async (client: Db) => {
    // Creating a task in a shared project is changing that project: editor or manager (kernel/visibility.ts).
    await requireProjectAccess(client, auth, attributes.projectId ?? null, 'write', 'project', '/projectId');
    await assertTaskReferences(client, workspaceId, attributes);
    await insertTask(client, task, event);
    return view;
  };
  return attributes.assigneeIds?.length ? op.transaction(write) : write(op.database);
});
