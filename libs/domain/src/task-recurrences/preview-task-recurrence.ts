import { z } from 'zod';
import { TaskRecurrencePreviewRequest } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';

import { assertSchedule, nextInstants, type Schedule } from './rule.js';
import { findTaskRecurrenceOr404, scheduleOf, taskRecurrenceIdOf } from './view.js';

export const previewTaskRecurrenceInput = z.object({ id: z.string().max(64), ...TaskRecurrencePreviewRequest.shape }).strict();

/** How many instants a preview shows when `count` is absent. */
const DEFAULT_PREVIEW_COUNT = 10;

/**
 * `POST /v1/task-recurrences/{id}/preview`: the next `count` (default 10, at most 100) instants of the stored
 * schedule, or of a draft (any of rule, startsOn, timeZone in the body replaces the stored one), from now on or from
 * the first day if that is later; an external series (or draft) has none. Reads only: nothing is written, not even
 * the cursor.
 */
export const previewTaskRecurrence = defineProcedure('previewTaskRecurrence', previewTaskRecurrenceInput, async (op, input): Promise<{ recurrenceId: string; occurrences: string[] }> => {
  const id = taskRecurrenceIdOf(input.id);
  const stored = scheduleOf(await findTaskRecurrenceOr404(op.database, op.auth, id));
  const schedule: Schedule = { rule: input.rule ?? stored.rule, startsOn: input.startsOn ?? stored.startsOn, timeZone: input.timeZone ?? stored.timeZone };
  assertSchedule(schedule);
  const instants = nextInstants(schedule, op.now(), input.count ?? DEFAULT_PREVIEW_COUNT);
  return { recurrenceId: id, occurrences: instants.map((instant) => instant.toISOString()) };
});
