import { z } from 'zod';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type TaskView, writeTask } from './view.js';

export const restoreTaskInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/** `POST /v1/tasks/{id}/restore` (If-Match): clears archived_at; a task that is not archived is 409. Writes `task.restored`. */
export const restoreTask = defineProcedure('restoreTask', restoreTaskInput, async (op, { id, expectedRevision }): Promise<TaskView> =>
  writeTask(op, { id, expectedRevision, guard: { archived: true }, attributes: {}, extra: { archivedAt: null }, event: 'task.restored', stateConflict: 'is not archived' }),
);
