import { z } from 'zod';
import { TaskUpdate } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type TaskView, writeTask } from './view.js';

export const updateTaskInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput, ...TaskUpdate.shape }).strict();

/** `PATCH /v1/tasks/{id}` (If-Match): the sent attributes of an unarchived task; writes `task.updated`. */
export const updateTask = defineProcedure('updateTask', updateTaskInput, async (op, input): Promise<TaskView> => {
  const { id, expectedRevision, ...attributes } = input;
  if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: 'Send at least one attribute.' }]);
  return writeTask(op, { id, expectedRevision, guard: { archived: false }, attributes, event: 'task.updated', stateConflict: 'is archived; restore it before changing it' });
});
