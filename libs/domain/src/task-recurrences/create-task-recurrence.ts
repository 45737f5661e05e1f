import { z } from 'zod';
import { findTask, insertTaskRecurrence } from '@workcell/db';
import { TaskRecurrenceCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';
import { requireProjectAccess, viewerOf } from '../kernel/visibility.js';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { validationError } from '../roles/permission-model.js';
import { assertSchedule, cursorFrom } from './rule.js';
import { taskRecurrenceEventView, type TaskRecurrenceView, versionedTaskRecurrence } from './view.js';

export const createTaskRecurrenceInput = z.object({ ...TaskRecurrenceCreate.shape }).strict();

/**
 * `POST /v1/task-recurrences`: a new series (revision 1) of an unarchived task of the workspace the caller may write
 * (400 /templateTaskId alike for missing, archived, foreign, ungranted and hidden by its project's sharing; 403
 * insufficient_project_access with only viewer access to that project). Its cursor is the rule's first instant
 * from now on: instants of a start in the past are not made by the worker (a recheck makes them); a rule with no
 * instant left makes an `ended` series. Writes `task_recurrence.created` in the same transaction, which also
 * completes a held idempotency key.
 */
export const createTaskRecurrence = defineProcedure('createTaskRecurrence', createTaskRecurrenceInput, async (op, input): Promise<Versioned<TaskRecurrenceView>> => {
  const { auth } = op;
  requireTypeGrant(auth, 'task', 'write', 'tasks');
  const schedule = { rule: input.rule, startsOn: input.startsOn, timeZone: input.timeZone };
  assertSchedule(schedule);
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const taskId = input.templateTaskId.toLowerCase();
    // The template as the caller may see it (task grants, project sharing); a series makes tasks in its project: editor or manager there.
    const template = isUuid(taskId) ? await findTask(tx, workspaceId, taskId, viewerOf(auth)) : null;
    if (template === null || template.archivedAt !== null)
      throw validationError('the template task is not valid', [{ pointer: '/templateTaskId', message: `no unarchived task ${JSON.stringify(input.templateTaskId)} in this workspace` }]);
    await requireProjectAccess(tx, auth, template.projectId, 'write', 'task', '/templateTaskId');
    const next = cursorFrom(schedule, null, now);
    const external = input.rule.frequency === 'external';
    const state = !external && next === null ? 'ended' : (input.status ?? 'active');
    const row = await insertTaskRecurrence(tx, workspaceId, taskId, { rule: input.rule, startsOn: new Date(`${input.startsOn}T00:00:00Z`), timezone: input.timeZone, state, nextOccurrenceAt: next });
    const result = versionedTaskRecurrence(row);
    await op.emit(tx, resourceEvent(op, { type: 'task_recurrence', id: row.id, action: 'created', view: taskRecurrenceEventView(row), at: now, result }));
    return result;
  });
});
