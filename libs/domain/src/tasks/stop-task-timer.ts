import { z } from 'zod';
import { stopRunningTimer } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { holdsBilling, timeEntryEventView, type TimeEntryView, timeEntryView } from '../time-entries/view.js';
import { onTaskTimer } from './timer.js';
import { resourceEvent } from '../kernel/resource-events.js';

export const stopTaskTimerInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `POST /v1/tasks/{id}/timer/stop`: ends the acting member's running time entry on this task (stopped_at and
 * duration set in one statement). No timer of the member running on this task: 409 `timer_not_running`,
 * nothing changes. A service-account principal: 403 forbidden. Writes `task.timer_stopped` and, since the
 * timer is a time entry, `time_entry.updated` (its end and duration changed) in the same transaction.
 */
export const stopTaskTimer = defineProcedure('stopTaskTimer', stopTaskTimerInput, async (op, input): Promise<TimeEntryView> => {
  const { auth, requestId } = op;
  return onTaskTimer(op, input.id, async (tx, task, memberId, now) => {
    const taskId = task.id;
    const entry = await stopRunningTimer(tx, auth.workspaceId, memberId, taskId, now);
    if (!entry) throw new DomainError('timer_not_running', 'no timer of yours is running on this task');
    await op.emit(tx, {
      aggregateType: 'task',
      aggregateId: taskId,
      eventType: 'task.timer_stopped',
      payload: { taskId, timeEntryId: entry.id, memberId, durationSeconds: entry.durationSeconds ?? 0, requestId },
      occurredAt: now,
    });
    const result = timeEntryView(entry, holdsBilling(auth), now);
    await op.emit(
      tx,
      resourceEvent(op, { type: 'time_entry', id: entry.id, action: 'updated', view: { ...timeEntryEventView(entry, now) }, changed: ['endedAt', 'durationSeconds'], at: now, result }),
    );
    return result;
  });
});
