import { z } from 'zod';
import { TaskMove } from '@workcell/registry';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type TaskView, writeTask } from './view.js';

/** The registry's TaskMove; its `position` is accepted, but tasks keep no manual order yet, so it changes nothing. */
export const moveTaskInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput, ...TaskMove.shape }).strict();

/**
 * `POST /v1/tasks/{id}/move` (If-Match): the task's project (null: none) and, when sent, its list; both must be
 * unarchived rows of the workspace (400 with a pointer). Writes `task.moved`.
 */
export const moveTask = defineProcedure('moveTask', moveTaskInput, async (op, { id, expectedRevision, projectId, listId }): Promise<TaskView> =>
  writeTask(op, {
    id,
    expectedRevision,
    guard: { archived: false },
    attributes: { projectId, ...(listId === undefined ? {} : { listId }) },
    event: 'task.moved',
    stateConflict: 'is archived; restore it before moving it',
  }),
);
