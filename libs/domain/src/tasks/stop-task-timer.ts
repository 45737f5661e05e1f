import { z } from 'zod';
import { appendOutboxEvent, findTask, inTransaction, stopRunningTimer } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { writeInput } from '../roles/permission-model.js';
import { requireMember } from '../credentials/access.js';
import { holdsBilling, type TimeEntryView, timeEntryView } from '../time-entries/view.js';
import { taskIdOf, taskNotFound } from './view.js';

export const stopTaskTimerInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `POST /v1/tasks/{id}/timer/stop`: ends the acting member's running time entry on this task (stopped_at and
 * duration set in one statement). No timer of the member running on this task: 409 `timer_not_running`,
 * nothing changes. A service-account principal: 403 forbidden. Writes `task.timer_stopped`.
 */
export const stopTaskTimer = defineProcedure('stopTaskTimer', stopTaskTimerInput, async (ctx, input): Promise<TimeEntryView> => {
  const { auth, requestId } = input;
  const memberId = requireMember(auth, 'time tracking');
  const workspaceId = auth.workspaceId;
  const taskId = taskIdOf(input.id);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findTask(tx, workspaceId, taskId))) throw taskNotFound();
    const entry = await stopRunningTimer(tx, workspaceId, memberId, taskId, now);
    if (!entry) throw new DomainError('timer_not_running', 'no timer of yours is running on this task');
    await appendOutboxEvent(tx, {
      workspaceId,
      aggregateType: 'task',
      aggregateId: taskId,
      eventType: 'task.timer_stopped',
      payload: { taskId, timeEntryId: entry.id, memberId, durationSeconds: entry.durationSeconds ?? 0, requestId },
      occurredAt: now,
    });
    return timeEntryView(entry, holdsBilling(auth), now);
  });
});
