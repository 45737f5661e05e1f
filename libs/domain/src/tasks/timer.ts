import { type Db, findTask, type TaskRecord } from '@workcell/db';
import { requireMember } from '../credentials/access.js';
import type { Operation } from '../kernel/procedure.js';
import { viewerOf } from '../kernel/visibility.js';
import { taskIdOf, taskNotFound } from './view.js';

/**
 * What starting and stopping the caller's timer on a task share: the member it tracks time for (a service account has
 * none: 403), the task as the caller may see it (404 otherwise), read in the operation's transaction, at its instant.
 */
export function onTaskTimer<T>(op: Operation, rawTaskId: string, work: (tx: Db, task: TaskRecord, memberId: string, now: Date) => Promise<T>): Promise<T> {
  const { auth } = op;
  const memberId = requireMember(auth, 'time tracking');
  const taskId = taskIdOf(rawTaskId);
  const now = op.now();
  return op.transaction(async (tx) => {
    const task = await findTask(tx, auth.workspaceId, taskId, viewerOf(auth));
    if (!task) throw taskNotFound();
    return work(tx, task, memberId, now);
  });
}
