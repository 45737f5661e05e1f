import { z } from 'zod';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { authInput } from '../kernel/inputs.js';
import { findTaskRecurrenceOr404, taskRecurrenceIdOf, type TaskRecurrenceView, versionedTaskRecurrence } from './view.js';

export const getTaskRecurrenceInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/task-recurrences/{id}`: one series of the caller's workspace, archived or not. */
export const getTaskRecurrence = defineProcedure('getTaskRecurrence', getTaskRecurrenceInput, async (ctx, { auth, id }): Promise<Versioned<TaskRecurrenceView>> => {
  const row = await findTaskRecurrenceOr404(ctx.database, auth, taskRecurrenceIdOf(id));
  return versionedTaskRecurrence(row);
});
