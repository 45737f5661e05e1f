import { z } from 'zod';
import { activeMemberIds, listTaskPlannedWork, lockScheduleTask, type PlannedWorkWindow, replaceTaskPlannedWorkRows, type Db } from '@workcell/db';
import { TaskPlannedWorkReplace } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';

import { requireProjectAccess } from '../kernel/visibility.js';
import { scheduleVersion, type TaskPlannedWorkView, taskPlannedWorkView } from './view.js';

export const replaceTaskPlannedWorkInput = z.object({ id: z.string().max(64), ...TaskPlannedWorkReplace.shape }).strict();

type WindowInput = z.output<typeof TaskPlannedWorkReplace>['windows'][number];

/**
 * Every rule a schedule must meet, all problems at once with a JSON pointer each: the end after the start,
 * no more planned minutes than the window is long, an active member of this workspace, and no two windows
 * of one member overlapping on this task (the same member twice at once is a data error; different members,
 * or one member on different tasks, may overlap).
 */
async function scheduleIssues(tx: Db, workspaceId: string, windows: readonly WindowInput[]): Promise<{ issues: FieldIssue[]; rows: PlannedWorkWindow[] }> {
  const issues: FieldIssue[] = [];
  const rows = windows.map((w) => ({ memberId: w.memberId.toLowerCase(), windowStart: new Date(w.startsAt), windowEnd: new Date(w.endsAt), minutes: w.plannedMinutes }));
  const members = await activeMemberIds(tx, workspaceId, [...new Set(rows.map((r) => r.memberId).filter(isUuid))]);
  rows.forEach((row, i) => {
    const length = row.windowEnd.getTime() - row.windowStart.getTime();
    if (length <= 0) issues.push({ pointer: `/windows/${i}/endsAt`, message: 'must be after startsAt' });
    else if (row.minutes * 60_000 > length) issues.push({ pointer: `/windows/${i}/plannedMinutes`, message: 'must not exceed the length of the window' });
    if (!members.has(row.memberId)) issues.push({ pointer: `/windows/${i}/memberId`, message: 'no such active member in this workspace' });
    const clash = rows.findIndex((other, j) => j < i && other.memberId === row.memberId && other.windowStart < row.windowEnd && row.windowStart < other.windowEnd);
    if (length > 0 && clash >= 0) issues.push({ pointer: `/windows/${i}/startsAt`, message: `overlaps /windows/${clash} of the same member` });
  });
  return { issues, rows };
}

/**
 * `PUT /v1/tasks/{id}/planned-work` (compare-and-set, fully guarded): replaces the task's whole schedule.
 * One transaction locks the task row, validates every window (400 with a pointer per offending entry),
 * compares `expectedVersion` with the version of the schedule as committed (409 version_conflict), then
 * deletes the old windows and inserts the new ones and writes `planned_work.replaced`; any failure writes
 * nothing. The lock makes concurrent replacements with one version run in turn: exactly one wins. An
 * archived task's schedule is read-only (409). A service account needs write on the task; a task in a shared
 * project needs editor or manager access there (404 when its sharing hides it, 403 with viewer access).
 */
export const replaceTaskPlannedWork = defineProcedure('replaceTaskPlannedWork', replaceTaskPlannedWorkInput, async (op, input): Promise<TaskPlannedWorkView> => {
  const { auth, requestId } = op;
  requireGrant(auth, 'task', input.id, 'write', 'task');
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'task not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    const task = await lockScheduleTask(tx, workspaceId, id);
    if (!task) throw new DomainError('not_found', 'task not found');
    // Sharing: the schedule is part of the task, so replacing it changes the task's project (editor or manager).
    await requireProjectAccess(tx, auth, task.projectId, 'write', 'task');
    const { issues, rows } = await scheduleIssues(tx, workspaceId, input.windows);
    if (issues.length > 0) throw new DomainError('validation_failed', 'the schedule is not valid; nothing was changed', issues);
    if (task.archived) throw new DomainError('conflict', 'the task is archived; restore it before changing its planned work');
    const before = await listTaskPlannedWork(tx, workspaceId, id);
    if (scheduleVersion(before) !== input.expectedVersion) {
      throw new DomainError('version_conflict', 'the planned work of this task has changed since expectedVersion was read; read it again and retry');
    }
    await replaceTaskPlannedWorkRows(tx, workspaceId, id, rows, now);
    const view = taskPlannedWorkView(id, await listTaskPlannedWork(tx, workspaceId, id));
    await op.emit(tx, {
      aggregateType: 'task',
      aggregateId: id,
      eventType: 'planned_work.replaced',
      payload: { plannedWork: { ...view, windows: view.windows.map((w) => ({ ...w })) }, previousVersion: input.expectedVersion, requestId },
      occurredAt: now,
    });
    return view;
  });
});
