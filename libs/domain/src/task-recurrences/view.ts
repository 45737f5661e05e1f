import { findTaskRecurrence, inTransaction, lockTaskRecurrence, setTaskRecurrenceArchived, type Db, type TaskOccurrenceRecord, type TaskRecurrenceRecord } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import { archivable } from '../kernel/archival.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError } from '../kernel/errors.js';
import { requireTypeGrant } from '../kernel/grants.js';
import { requireResourceAccess, viewerOf } from '../kernel/visibility.js';
import type { Versioned } from '../kernel/versioned.js';
import { idOf, notFoundOf } from '../kernel/lookup.js';
import type { Rule, Schedule } from './rule.js';

/**
 * Task recurrences (issue 14): a series belongs to a template task and creates occurrence tasks, copies of the
 * template (title, description, priority, project, list, assignee, estimate, tags) due at the occurrence's instant.
 * Resource grants: a service account sees a series only while its grants cover the template task (otherwise 404, so
 * nothing about it is revealed); creating, changing, archiving, restoring, rechecking a series or submitting an event
 * to it makes (or stops making) tasks, so it needs a type-wide task write grant, as creating a task does (403
 * insufficient_grant). Project sharing (kernel/visibility.ts): a series follows its template task's project, read
 * and write (those writes need editor or manager access there).
 */

export type TaskRecurrenceView = ArchivableView & {
  readonly templateTaskId: string;
  readonly rule: Rule;
  readonly startsOn: string;
  readonly timeZone: string;
  readonly status: 'active' | 'paused' | 'ended';
  readonly nextOccurrenceAt: string | null;
  readonly lastCheckedAt: string | null;
  readonly version: string;
};

export type TaskOccurrenceView = {
  readonly id: string;
  readonly recurrenceId: string;
  readonly taskId: string | null;
  readonly scheduledFor: string;
  readonly source: 'schedule' | 'external-event' | 'recheck';
  readonly status: 'scheduled' | 'created' | 'skipped' | 'failed';
};

/** A stored date (midnight UTC) as its ISO calendar date. */
const dateOnly = (date: Date): string => date.toISOString().slice(0, 10);

export function scheduleOf(row: TaskRecurrenceRecord): Schedule {
  return { rule: row.rule as Rule, startsOn: dateOnly(row.startsOn), timeZone: row.timezone };
}

export function taskRecurrenceView(row: TaskRecurrenceRecord): TaskRecurrenceView {
  return withArchivableFields(row, {
    templateTaskId: row.taskId,
    rule: row.rule as Rule,
    startsOn: dateOnly(row.startsOn),
    timeZone: row.timezone,
    status: row.state,
    nextOccurrenceAt: row.nextOccurrenceAt?.toISOString() ?? null,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    version: versionOf(row.revision),
  });
}

export function versionedTaskRecurrence(row: TaskRecurrenceRecord): Versioned<TaskRecurrenceView> {
  return { resource: taskRecurrenceView(row), revision: row.revision };
}

export function taskOccurrenceView(row: TaskOccurrenceRecord): TaskOccurrenceView {
  return { id: row.id, recurrenceId: row.recurrenceId, taskId: row.taskId, scheduledFor: row.scheduledFor.toISOString(), source: row.source, status: row.status };
}

export const taskRecurrenceNotFound = notFoundOf('task recurrence');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const taskRecurrenceIdOf = (raw: string): string => idOf(raw, taskRecurrenceNotFound);

/** The series of the caller's workspace whose template task the caller may see (task grants, project sharing: in the statement), else 404. */
export async function findTaskRecurrenceOr404(tx: Db, auth: V1AuthContext, id: string): Promise<TaskRecurrenceRecord> {
  const row = await findTaskRecurrence(tx, auth.workspaceId, id, viewerOf(auth));
  if (!row) throw taskRecurrenceNotFound();
  return row;
}

/**
 * A write's series: one the caller may see (else 404) whose template task's project it may change (sharing: editor
 * or manager, else 403 insufficient_project_access), since a series makes tasks in that project.
 */
export async function findWritableTaskRecurrence(tx: Db, auth: V1AuthContext, id: string): Promise<TaskRecurrenceRecord> {
  const row = await findTaskRecurrenceOr404(tx, auth, id);
  await requireResourceAccess(tx, auth, 'task_recurrence', id, 'write', 'task recurrence');
  return row;
}

/** 409 unless the series takes changes: archived series are read-only until restored. */
export function assertLive(row: TaskRecurrenceRecord): void {
  if (row.archivedAt !== null) throw new DomainError('conflict', 'the task recurrence is archived; restore it first');
}

/**
 * What recheck and event submission share: the task write grant, then one transaction holding a lock of a live
 * series the caller may see (404 otherwise, 409 when archived) and whose template task's project it may change
 * (sharing: 403 insufficient_project_access with viewer access), in which `work` runs at the request's instant. A
 * recheck takes the row exclusively without waiting: while the worker or another recheck holds it, 409 conflict
 * (retry), so racing requests never queue holding connections. Events share the lock with each other.
 */
export function onLockedSeries<T>(
  ctx: ProcedureContext,
  auth: V1AuthContext,
  rawId: string,
  lock: 'exclusive' | 'shared',
  work: (tx: Db, series: TaskRecurrenceRecord, now: Date) => Promise<T>,
): Promise<T> {
  requireTypeGrant(auth, 'task', 'write', 'tasks');
  const id = taskRecurrenceIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const locked = await lockTaskRecurrence(tx, auth.workspaceId, id, lock === 'shared' ? 'share' : 'update-or-busy', viewerOf(auth));
    if (locked === null) throw taskRecurrenceNotFound();
    await requireResourceAccess(tx, auth, 'task_recurrence', id, 'write', 'task recurrence');
    if (locked.busy) throw new DomainError('conflict', 'the task recurrence is being materialised by another request or the worker; retry');
    const series = locked.row;
    assertLive(series);
    return work(tx, series, now);
  });
}

/** The series as `task_recurrence.*` events carry it. */
export const taskRecurrenceEventView = (row: TaskRecurrenceRecord): TaskRecurrenceView => taskRecurrenceView(row);

/** How a series is archived and restored (kernel/archival.ts); an archived series materialises nothing. */
export const archivableTaskRecurrence = archivable({
  type: 'task_recurrence',
  find: (tx, workspaceId, id) => findTaskRecurrence(tx, workspaceId, id),
  setArchived: setTaskRecurrenceArchived,
  answer: versionedTaskRecurrence,
  eventView: taskRecurrenceEventView,
  // Restoring a series makes it materialise tasks again: like its other writes it needs a type-wide task write grant.
  authorize: (auth) => requireTypeGrant(auth, 'task', 'write', 'tasks'),
  // It follows its template task's project: archiving or restoring it needs editor or manager access there.
  followsProject: true,
});

/** The AsyncOperation a recheck or an event submission answers (202): the work is done in the request, so it has succeeded. */
export type RecurrenceOperationView = {
  readonly id: string;
  readonly kind: 'task-recurrence.recheck' | 'task-recurrence.event';
  readonly status: 'succeeded';
  readonly resourceType: 'task-recurrences';
  readonly resourceId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string;
  readonly error: null;
};

export function recurrenceOperation(id: string, kind: RecurrenceOperationView['kind'], recurrenceId: string, at: Date): RecurrenceOperationView {
  const when = at.toISOString();
  return { id, kind, status: 'succeeded', resourceType: 'task-recurrences', resourceId: recurrenceId, createdAt: when, updatedAt: when, completedAt: when, error: null };
}
