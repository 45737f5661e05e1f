import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { advanceTaskRecurrence, listTaskOccurrencesPage } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { appendOccurrencesCreated, materialise, MAX_OCCURRENCES_PER_RUN } from './materialise.js';
import { expandSchedule, nextInstant } from './rule.js';
import { onLockedSeries, recurrenceOperation, type RecurrenceOperationView, scheduleOf } from './view.js';

export const recheckTaskRecurrenceInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `POST /v1/task-recurrences/{id}/recheck` (202): re-evaluates the series now. Every instant of its schedule from
 * its first day up to now that has no occurrence gets one (source `recheck`, at most 100 per request, oldest
 * first, the rest on the next recheck; one before the series' creation, or skipped by an edit or a pause, included;
 * the expansion's bound, rule.ts MAX_EXPANSION, limits how far from the first day it looks),
 * then the cursor moves to the first instant after now and `lastCheckedAt` to now. Done within the request, so the answer's operation has
 * succeeded; `Location` names the series' occurrences. A paused series is 409 (resume it first), an archived one 409.
 * Writes `task_recurrence.rechecked` (and `task_recurrence.occurrences_created` when it made any).
 */
export const recheckTaskRecurrence = defineProcedure('recheckTaskRecurrence', recheckTaskRecurrenceInput, async (op, input): Promise<RecurrenceOperationView> => {
  const { auth, requestId } = op;
  return onLockedSeries(op, auth, input.id, 'exclusive', async (tx, series, now) => {
    const id = series.id;
    if (series.state === 'paused') throw new DomainError('conflict', 'the task recurrence is paused; resume it (status active) first');
    const schedule = scheduleOf(series);
    const existing = new Set<number>();
    for (let after: string | undefined; ;) {
      const page = await listTaskOccurrencesPage(tx, auth.workspaceId, id, after, 1000);
      for (const o of page) existing.add(o.scheduledFor.getTime());
      if (page.length < 1000) break;
      after = page.at(-1)!.id;
    }
    // The first day's instants up to now without an occurrence, oldest first; the walk ends with the batch full.
    const batch: Date[] = [];
    expandSchedule(schedule, null, true, (instant) => instant <= now && (existing.has(instant.getTime()) || batch.push(instant) < MAX_OCCURRENCES_PER_RUN));
    const made = await materialise(tx, series, batch, 'recheck', now, op, requestId);
    // The worker never makes instants from before now: what this request left missing waits for the next recheck.
    const next = nextInstant(schedule, now);
    const state = next === null && schedule.rule.frequency !== 'external' ? 'ended' : series.state;
    await advanceTaskRecurrence(tx, auth.workspaceId, id, { nextOccurrenceAt: schedule.rule.frequency === 'external' ? null : next, lastOccurrenceAt: batch.at(-1) ?? null, state, checkedAt: now });
    await appendOccurrencesCreated(tx, series, made, now, op, requestId);
    const result = recurrenceOperation(randomUUID(), 'task-recurrence.recheck', id, now);
    await op.emit(tx, {
      aggregateType: 'task_recurrence',
      aggregateId: id,
      eventType: 'task_recurrence.rechecked',
      payload: { taskRecurrenceId: id, created: made.length, requestId },
      occurredAt: now,
      result,
    });
    return result;
  });
});
