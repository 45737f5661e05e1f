import { z } from 'zod';
import { findRunningTimer, insertRunningTimer } from '@workcell/db';
import { TaskTimerStart } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { holdsBilling, timeEntryEventView, type TimeEntryView, timeEntryView } from '../time-entries/view.js';
import { onTaskTimer } from './timer.js';
import { requireProjectAccess } from '../kernel/visibility.js';
import { resourceEvent } from '../kernel/resource-events.js';

export const startTaskTimerInput = z.object({ id: z.string().max(64), ...TaskTimerStart.shape }).strict();

/**
 * `POST /v1/tasks/{id}/timer/start`: a running time entry (stopped_at null) of the acting member on the task.
 * Decisions (issue 6):
 * - A member has at most one running timer (the partial unique index decides, so concurrent starts cannot both
 *   win). Starting while one runs, on this or any other task, is refused with 409 `timer_already_running` and
 *   changes nothing: the running timer is never stopped implicitly (stop it first). v1 uses 409 (a state
 *   conflict) where v0 answered 400.
 * - A service-account principal has no member to track time for: 403 forbidden.
 * - An archived task takes no new timer: 409 conflict.
 * Writes `task.timer_started` and, since the timer is a time entry, `time_entry.created` (the same event any
 * other creation of a time entry writes) in the same transaction.
 */
export const startTaskTimer = defineProcedure('startTaskTimer', startTaskTimerInput, async (op, input): Promise<TimeEntryView> => {
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  return onTaskTimer(op, input.id, async (tx, task, memberId, now) => {
    const taskId = task.id;
    // The timer is a time entry in the task's project: adding one changes that project (editor or manager).
    await requireProjectAccess(tx, auth, task.projectId, 'write', 'task');
    if (task.archivedAt !== null) throw new DomainError('conflict', 'the task is archived; restore it before tracking time on it');
    const entry = await insertRunningTimer(tx, { workspaceId, memberId, taskId, projectId: task.projectId, description: input.note ?? null }, now);
    if (!entry) {
      const running = await findRunningTimer(tx, workspaceId, memberId);
      throw new DomainError('timer_already_running', 'a timer is already running for you; stop it before starting another', [], {
        timeEntryId: running?.id ?? null,
        taskId: running?.taskId ?? null,
      });
    }
    await op.emit(tx, {
      aggregateType: 'task',
      aggregateId: taskId,
      eventType: 'task.timer_started',
      payload: { taskId, timeEntryId: entry.id, memberId, startedAt: entry.startedAt.toISOString(), requestId },
      occurredAt: now,
    });
    const result = timeEntryView(entry, holdsBilling(auth), now);
    await op.emit(tx, resourceEvent(op, { type: 'time_entry', id: entry.id, action: 'created', view: { ...timeEntryEventView(entry, now) }, at: now, result }));
    return result;
  });
});
