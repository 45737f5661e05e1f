import { z } from 'zod';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { findTaskRecurrenceOr404, taskRecurrenceIdOf, type TaskRecurrenceView, versionedTaskRecurrence } from './view.js';

export const getTaskRecurrenceInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/task-recurrences/{id}`: one series of the caller's workspace, archived or not. */
export const getTaskRecurrence = defineProcedure('getTaskRecurrence', getTaskRecurrenceInput, async (op, { id }): Promise<Versioned<TaskRecurrenceView>> => {
  const { auth } = op;
  const row = await findTaskRecurrenceOr404(op.database, auth, taskRecurrenceIdOf(id));
  return versionedTaskRecurrence(row);
});
