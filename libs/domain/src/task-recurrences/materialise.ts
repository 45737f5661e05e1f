import { z } from 'zod';
import {
  advanceTaskRecurrence,
  dueTaskRecurrences,
  findTask,
  inTransaction,
  insertTask,
  insertTaskOccurrenceOnce,
  lockTaskRecurrence,
  newTask,
  type OccurrenceSource,
  setTaskOccurrenceTask,
  type TaskOccurrenceRecord,
  type TaskRecord,
  type TaskRecurrenceRecord,
  type Db,
} from '@workcell/db';
import { definePlatformProcedure, type EventSource, platformEvents } from '../kernel/procedure.js';
import { taskView } from '../tasks/view.js';
import { instantsBetween, nextInstant } from './rule.js';
import { scheduleOf, taskOccurrenceView } from './view.js';

/**
 * Materialisation: occurrences become tasks exactly once. Each occurrence is inserted with ON CONFLICT DO NOTHING
 * against its unique key (series, instant) in the transaction that makes its task, writes `task.created` and moves
 * the series' cursor; the series row is locked for that transaction. So a worker that dies mid-run leaves nothing
 * half done (the transaction rolls back and the next run does it again), and two workers never both create an
 * occurrence: the second waits for the first's lock, then finds the key taken.
 */

/** At most this many occurrences per series per transaction (a series started long ago catches up run by run). */
export const MAX_OCCURRENCES_PER_RUN = 100;

/** The occurrence task: a copy of the template, open, due at the occurrence's instant. */
function occurrenceTask(template: TaskRecord, scheduledFor: Date, now: Date): TaskRecord {
  return newTask(
    template.workspaceId,
    {
      title: template.title,
      description: template.description,
      priority: template.priority,
      projectId: template.projectId,
      listId: template.listId,
      assigneeMemberId: template.assigneeMemberId,
      estimateMinutes: template.estimateMinutes,
      dueAt: scheduledFor,
      tagIds: template.tagIds,
    },
    now,
  );
}

/**
 * Inserts the occurrences of `instants` (and `externalEventId`, for an event's one) that the series does not have
 * yet, each with its task (or `skipped` without one while the template task is archived), in `tx`, which holds the
 * series' lock. Returns the occurrences it created; existing ones are left alone.
 */
export async function materialise(
  tx: Db,
  series: TaskRecurrenceRecord,
  instants: readonly Date[],
  source: OccurrenceSource,
  now: Date,
  events: EventSource,
  requestId: string | null,
  externalEventId: string | null = null,
): Promise<TaskOccurrenceRecord[]> {
  const { workspaceId } = series;
  const template = await findTask(tx, workspaceId, series.taskId);
  const made: TaskOccurrenceRecord[] = [];
  for (const scheduledFor of instants) {
    const live = template !== null && template.archivedAt === null;
    const occurrence = await insertTaskOccurrenceOnce(tx, workspaceId, { recurrenceId: series.id, scheduledFor, source, status: live ? 'scheduled' : 'skipped', externalEventId });
    if (occurrence === null) continue;
    if (!live) {
      made.push(occurrence);
      continue;
    }
    const task = occurrenceTask(template, scheduledFor, now);
    const view = taskView(task);
    await insertTask(tx, task, events.event({ aggregateType: 'task', aggregateId: task.id, eventType: 'task.created', payload: { task: { ...view }, requestId }, occurredAt: now }));
    await setTaskOccurrenceTask(tx, workspaceId, occurrence.id, task.id);
    made.push({ ...occurrence, taskId: task.id, status: 'created' });
  }
  return made;
}

/** `task_recurrence.occurrences_created`, when a run created any (subscribers learn of new occurrences without polling). */
export async function appendOccurrencesCreated(tx: Db, series: TaskRecurrenceRecord, made: readonly TaskOccurrenceRecord[], now: Date, events: EventSource, requestId: string | null): Promise<void> {
  if (made.length === 0) return;
  await events.emit(tx, {
    aggregateType: 'task_recurrence',
    aggregateId: series.id,
    eventType: 'task_recurrence.occurrences_created',
    payload: { taskRecurrenceId: series.id, occurrences: made.map(taskOccurrenceView), requestId },
    occurredAt: now,
  });
}

/**
 * The scheduled occurrences due by `dueBy` from the series' cursor (at most MAX_OCCURRENCES_PER_RUN), then the
 * cursor moved past them; a series whose rule has no instant left ends. In `tx`, which holds the series' lock.
 */
export async function materialiseFromCursor(
  tx: Db,
  series: TaskRecurrenceRecord,
  dueBy: Date,
  now: Date,
  source: OccurrenceSource,
  events: EventSource,
  requestId: string | null,
): Promise<TaskOccurrenceRecord[]> {
  const schedule = scheduleOf(series);
  const instants = series.nextOccurrenceAt === null ? [] : instantsBetween(schedule, series.nextOccurrenceAt, dueBy, MAX_OCCURRENCES_PER_RUN);
  const made = await materialise(tx, series, instants, source, now, events, requestId);
  const last = instants.at(-1) ?? null;
  // With nothing due the cursor moves to the schedule's next instant at or after it (a rule changed under it).
  const next = last !== null ? nextInstant(schedule, last) : series.nextOccurrenceAt === null ? null : nextInstant(schedule, series.nextOccurrenceAt, true);
  const state = next === null && schedule.rule.frequency !== 'external' ? 'ended' : series.state;
  await advanceTaskRecurrence(tx, series.workspaceId, series.id, { nextOccurrenceAt: next, lastOccurrenceAt: last, state, checkedAt: now });
  await appendOccurrencesCreated(tx, series, made, now, events, requestId);
  return made;
}

export const materialiseDueTaskRecurrencesInput = z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict();

/**
 * The worker's recurring job (`task-recurrences.materialise`): every active, unarchived series whose cursor is due
 * gets its due occurrences, one transaction per series (locked with SKIP LOCKED, so concurrent workers share the
 * work instead of waiting on each other). Up to `limit` series per run; the next run takes the rest. A series whose
 * transaction fails is rolled back whole and left for the next run, without holding up the others (`failed`).
 */
export const materialiseDueTaskRecurrences = definePlatformProcedure('materialiseDueTaskRecurrences', materialiseDueTaskRecurrencesInput, async (ctx, { limit }) => {
  const failed: string[] = [];
  let series = 0;
  let occurrences = 0;
  while (series + failed.length < limit) {
    const now = ctx.now();
    const picked: { id: string | null } = { id: null };
    try {
      const made = await inTransaction(ctx.database, async (tx) => {
        const [due] = await dueTaskRecurrences(tx, now, 1, failed);
        if (due === undefined) return null;
        picked.id = due.id;
        const locked = await lockTaskRecurrence(tx, due.workspaceId, due.id);
        return locked === null ? [] : materialiseFromCursor(tx, locked.row, now, now, 'schedule', platformEvents(locked.row.workspaceId), null);
      });
      if (made === null) break;
      series++;
      occurrences += made.length;
    } catch (error) {
      if (picked.id === null) throw error;
      failed.push(picked.id);
    }
  }
  return { series, occurrences, failed };
});
