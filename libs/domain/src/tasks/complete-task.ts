import { z } from 'zod';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type TaskView, writeTask } from './view.js';

export const completeTaskInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/** `POST /v1/tasks/{id}/complete` (If-Match): an open, unarchived task becomes completed (else 409). Writes `task.completed`. */
export const completeTask = defineProcedure('completeTask', completeTaskInput, async (op, { id, expectedRevision }): Promise<TaskView> =>
  writeTask(op, {
    id,
    expectedRevision,
    guard: { archived: false, completed: false },
    attributes: {},
    extra: { status: 'completed', completedAt: op.now() },
    event: 'task.completed',
    stateConflict: 'is already completed or archived',
  }),
);
