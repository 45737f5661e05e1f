import { z } from 'zod';
import { type TaskRecurrenceChanges, updateTaskRecurrenceIfRevision } from '@workcell/db';
import { TaskRecurrenceUpdate } from '@workcell/registry';
import { nothingToChange } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { requireTypeGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertSchedule, cursorFrom, type Schedule } from './rule.js';
import { assertLive, findTaskRecurrenceOr404, findWritableTaskRecurrence, scheduleOf, taskRecurrenceEventView, taskRecurrenceIdOf, type TaskRecurrenceView, versionedTaskRecurrence } from './view.js';

export const updateTaskRecurrenceInput = z.object({ id: z.string().max(64), ...TaskRecurrenceUpdate.shape }).strict();

/**
 * `PATCH /v1/task-recurrences/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale): changes
 * the rule, first day, time zone or status (active, paused; `ended` is the schedule's to set). A changed schedule,
 * and resuming a paused series, move the cursor to the first instant from now on and after the last occurrence made
 * (occurrences already made stay; what fell due while paused is made by a recheck only). A series
 * whose schedule has no instant left is `ended`; a new rule with instants left makes an ended series active again.
 * An archived series is 409 until restored. Writes `task_recurrence.updated` in the same transaction.
 */
export const updateTaskRecurrence = defineProcedure('updateTaskRecurrence', updateTaskRecurrenceInput, async (op, input): Promise<Versioned<TaskRecurrenceView>> => {
  const { auth } = op;
  requireTypeGrant(auth, 'task', 'write', 'tasks');
  const workspaceId = auth.workspaceId;
  const id = taskRecurrenceIdOf(input.id);
  const given = { rule: input.rule, startsOn: input.startsOn, timeZone: input.timeZone, status: input.status };
  if (Object.values(given).every((v) => v === undefined)) throw nothingToChange();
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findWritableTaskRecurrence(tx, auth, id);
    assertLive(current);
    const stored = scheduleOf(current);
    const schedule: Schedule = { rule: input.rule ?? stored.rule, startsOn: input.startsOn ?? stored.startsOn, timeZone: input.timeZone ?? stored.timeZone };
    assertSchedule(schedule);
    const rescheduled = input.rule !== undefined || input.startsOn !== undefined || input.timeZone !== undefined;
    const resumed = input.status === 'active' && current.state === 'paused';
    const change: { -readonly [K in keyof TaskRecurrenceChanges]: TaskRecurrenceChanges[K] } = {};
    if (input.rule !== undefined) change.rule = input.rule;
    if (input.startsOn !== undefined) change.startsOn = new Date(`${input.startsOn}T00:00:00Z`);
    if (input.timeZone !== undefined) change.timezone = input.timeZone;
    let next = current.nextOccurrenceAt;
    if (rescheduled || resumed) {
      next = cursorFrom(schedule, current.lastOccurrenceAt, now);
      change.nextOccurrenceAt = next;
    }
    const wanted = input.status ?? (current.state === 'ended' ? 'active' : current.state);
    change.state = next === null && schedule.rule.frequency !== 'external' ? 'ended' : wanted;
    const outcome = await updateTaskRecurrenceIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'task recurrence');
    const row = await findTaskRecurrenceOr404(tx, auth, id);
    const changed = Object.keys(given).filter((k) => given[k as keyof typeof given] !== undefined);
    await op.emit(tx, resourceEvent(op, { type: 'task_recurrence', id, action: 'updated', view: taskRecurrenceEventView(row), changed, at: now }));
    return versionedTaskRecurrence(row);
  });
});
