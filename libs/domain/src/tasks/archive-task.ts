import { z } from 'zod';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type TaskView, writeTask } from './view.js';

export const archiveTaskInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/** `DELETE /v1/tasks/{id}` (If-Match): sets archived_at (never deletes); an archived task is 409. Writes `task.archived`. */
export const archiveTask = defineProcedure('archiveTask', archiveTaskInput, async (op, { id, expectedRevision }): Promise<TaskView> =>
  writeTask(op, { id, expectedRevision, guard: { archived: false }, attributes: {}, extra: { archivedAt: op.now() }, event: 'task.archived', stateConflict: 'is already archived' }),
);
