import { z } from 'zod';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type TaskView, writeTask } from './view.js';

export const reopenTaskInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/** `POST /v1/tasks/{id}/reopen` (If-Match): a completed, unarchived task becomes open again (else 409). Writes `task.reopened`. */
export const reopenTask = defineProcedure('reopenTask', reopenTaskInput, async (op, { id, expectedRevision }): Promise<TaskView> =>
  writeTask(op, {
    id,
    expectedRevision,
    guard: { archived: false, completed: true },
    attributes: {},
    extra: { status: 'open', completedAt: null },
    event: 'task.reopened',
    stateConflict: 'is not completed, or is archived',
  }),
);
