import { findTimeEntry, lockExistingMemberIds, projectExists, setTimeEntryArchived, taskProjectOf, type TimeEntryRow, type TimeEntryValues, type Db } from '@workcell/db';
import { MAX_DURATION_SECONDS, type TimeEntryCreate } from '@workcell/registry';
import type { z } from 'zod';
import { archivable } from '../kernel/archival.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import { LATEST_INSTANT_MS } from '../kernel/limits.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { requireProjectAccess, requireResourceAccess, viewerOf } from '../kernel/visibility.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';

/**
 * Time entries (issue 6). An entry without `endedAt` is a running timer (at most one per member); a manual
 * entry has both ends, or `startedAt` plus `durationSeconds`. `endedAt` ≥ `startedAt` always, a running
 * timer cannot start in the future, and a range is at most `MAX_DURATION_SECONDS` long (else 400 with a
 * pointer). `billing` is an overlay: present only when the caller holds `time-entries:billing`.
 */

export const BILLING_SCOPE = 'time-entries:billing';

export type Money = { readonly amount: string; readonly currency: string };
export interface TimeEntryBillingView {
  readonly billable: boolean;
  readonly billingRate: Money | null;
}

/** A time entry as the registry's TimeEntry. */
export interface TimeEntryView extends ArchivableView {
  readonly taskId: string | null;
  readonly projectId: string | null;
  readonly userId: string;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly durationSeconds: number;
  readonly note: string | null;
  readonly billing?: TimeEntryBillingView;
  readonly version: string;
}

export function billingOf(row: TimeEntryRow): TimeEntryBillingView {
  return {
    billable: row.billable,
    billingRate: row.billingRate === null || row.billingCurrency === null ? null : { amount: row.billingRate, currency: row.billingCurrency },
  };
}

export const holdsBilling = (auth: V1AuthContext): boolean => auth.effectiveScopes.includes(BILLING_SCOPE);

/** The view; a running timer's duration is the time elapsed so far. `billing` only when `withBilling`. */
export function timeEntryView(row: TimeEntryRow, withBilling: boolean, now: Date): TimeEntryView {
  const elapsed = Math.max(0, Math.floor((now.getTime() - row.startedAt.getTime()) / 1000));
  return withArchivableFields(row, {
    taskId: row.taskId,
    projectId: row.projectId,
    userId: row.memberId,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.stoppedAt?.toISOString() ?? null,
    durationSeconds: row.stoppedAt === null ? elapsed : (row.durationSeconds ?? 0),
    note: row.description,
    ...(withBilling ? { billing: billingOf(row) } : {}),
    version: versionOf(row.revision),
  });
}

/** The entry as outbox events carry it: never the billing overlay (the change feed is not billing-scoped). */
export function timeEntryEventView(row: TimeEntryRow, now: Date): Omit<TimeEntryView, 'billing'> {
  const { billing: _billing, ...view } = timeEntryView(row, false, now);
  return view;
}

export function versionedTimeEntry(row: TimeEntryRow, withBilling: boolean, now: Date): Versioned<TimeEntryView> {
  return { resource: timeEntryView(row, withBilling, now), revision: row.revision };
}

/** The writable attributes (the registry's TimeEntryCreate), all optional here; create requires startedAt. */
export type TimeEntryAttributes = Partial<z.output<typeof TimeEntryCreate>>;

export const timeEntryNotFound = notFoundOf('time entry');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const timeEntryIdOf = (raw: string): string => idOf(raw, timeEntryNotFound);

export const findTimeEntryOr404 = (tx: Db, workspaceId: string, id: string): Promise<TimeEntryRow> => foundOr(findTimeEntry(tx, workspaceId, id), timeEntryNotFound);

/**
 * The entry's stored values after applying `input` to `current` (null on create), validated: references name
 * unarchived rows of the caller's workspace it may see (the project defaults to the task's and must match it), the user
 * is an active member (default: the acting member), and the range is consistent. 400 with pointers otherwise. The
 * project the entry is put into must be one the caller may change (requireTargetProjectWrite).
 */
export async function resolveTimeEntry(tx: Db, auth: V1AuthContext, current: TimeEntryRow | null, input: TimeEntryAttributes, now: Date): Promise<TimeEntryValues> {
  const workspaceId = auth.workspaceId;
  const issues: FieldIssue[] = [];
  const lower = (v: string | null | undefined) => (v === null || v === undefined ? v : v.toLowerCase());

  let memberId: string | null = lower(input.userId) ?? current?.memberId ?? (auth.principal.type === 'member' ? auth.principal.id : null);
  if (memberId === null) issues.push({ pointer: '/userId', message: 'a service account has no member: name the member in userId' });
  else if (input.userId !== undefined && !(isUuid(memberId) && (await lockExistingMemberIds(tx, workspaceId, [memberId])).has(memberId))) {
    issues.push({ pointer: '/userId', message: 'no such member in this workspace' });
    memberId = null;
  }
  if (current !== null && current.stoppedAt === null && memberId !== null && memberId !== current.memberId) {
    issues.push({ pointer: '/userId', message: 'a running timer stays with its member; stop it first' });
  }

  const taskId = input.taskId === undefined ? (current?.taskId ?? null) : lower(input.taskId)!;
  let projectId = input.projectId === undefined ? (current?.projectId ?? null) : lower(input.projectId)!;
  // The named task's project (undefined: not looked up). A task in a project whose sharing hides it is no task for the caller.
  let taskProject: string | null | undefined;
  if (input.taskId != null) {
    const task = isUuid(input.taskId) ? await taskProjectOf(tx, workspaceId, taskId!, viewerOf(auth)) : undefined;
    taskProject = task?.projectId;
    if (task === undefined) issues.push({ pointer: '/taskId', message: 'no such task in this workspace' });
    else if (input.projectId === undefined) projectId = task.projectId;
    else if (input.projectId !== null && task.projectId !== null && task.projectId !== projectId) {
      issues.push({ pointer: '/projectId', message: 'the task belongs to another project' });
    }
  }
  if (input.projectId != null && !(isUuid(input.projectId) && (await projectExists(tx, workspaceId, projectId!)))) {
    issues.push({ pointer: '/projectId', message: 'no such project in this workspace' });
  }

  const startedAt = input.startedAt === undefined ? current!.startedAt : new Date(input.startedAt);
  let stoppedAt: Date | null;
  let rangePointer = '/endedAt';
  if (input.endedAt !== undefined && input.endedAt !== null) stoppedAt = new Date(input.endedAt);
  else if (input.endedAt === null) stoppedAt = null;
  else if (input.durationSeconds !== undefined) {
    stoppedAt = new Date(startedAt.getTime() + input.durationSeconds * 1000);
    rangePointer = '/durationSeconds';
  } else if (current !== null && current.stoppedAt !== null && input.startedAt !== undefined) {
    stoppedAt = current.stoppedAt;
    rangePointer = '/startedAt';
  } else stoppedAt = current?.stoppedAt ?? null;

  if (current !== null && current.stoppedAt !== null && stoppedAt === null) issues.push({ pointer: '/endedAt', message: 'a stopped time entry cannot be restarted' });
  if (stoppedAt === null && input.durationSeconds !== undefined) issues.push({ pointer: '/durationSeconds', message: 'a running timer has no duration yet' });
  if (stoppedAt === null && startedAt.getTime() > now.getTime()) issues.push({ pointer: '/startedAt', message: 'a running timer cannot start in the future' });
  let durationSeconds: number | null = null;
  if (stoppedAt !== null) {
    durationSeconds = Math.floor((stoppedAt.getTime() - startedAt.getTime()) / 1000);
    if (!(stoppedAt.getTime() <= LATEST_INSTANT_MS)) issues.push({ pointer: rangePointer, message: 'the entry would end after 9999-12-31T23:59:59.999Z, the latest supported instant' });
    else if (stoppedAt.getTime() < startedAt.getTime()) issues.push({ pointer: rangePointer, message: 'endedAt must not be before startedAt' });
    else if (durationSeconds > MAX_DURATION_SECONDS) issues.push({ pointer: rangePointer, message: `a time entry lasts at most ${MAX_DURATION_SECONDS} seconds` });
    else if (input.durationSeconds !== undefined && input.endedAt != null && input.durationSeconds !== durationSeconds) {
      issues.push({ pointer: '/durationSeconds', message: 'durationSeconds disagrees with startedAt and endedAt' });
    }
  }
  if (issues.length > 0) throw new DomainError('validation_failed', 'the time entry is not valid', issues);
  if (input.projectId !== undefined || input.taskId !== undefined) await requireTargetProjectWrite(tx, auth, projectId, taskId, taskProject);
  return {
    memberId: memberId!,
    projectId,
    taskId,
    description: input.note === undefined ? (current?.description ?? null) : input.note,
    startedAt,
    stoppedAt,
    durationSeconds,
  };
}

/**
 * Sharing (kernel/visibility.ts): an entry belongs to its own project, else to its task's; putting one into a project
 * (create, or an update naming `projectId` or `taskId`) changes that project, so the caller needs editor or manager
 * access there. A project the caller may not see is 400 at its pointer, like a missing one; viewer access is 403.
 */
async function requireTargetProjectWrite(tx: Db, auth: V1AuthContext, projectId: string | null, taskId: string | null, taskProject: string | null | undefined): Promise<void> {
  if (projectId !== null) return requireProjectAccess(tx, auth, projectId, 'write', 'project', '/projectId');
  if (taskProject !== undefined) return requireProjectAccess(tx, auth, taskProject, 'write', 'task', '/taskId');
  // No project of its own and its task unchanged: it now follows that task's project.
  if (taskId !== null) return requireResourceAccess(tx, auth, 'task', taskId, 'write', 'task');
}

/** How a time entry is archived and restored (kernel/archival.ts); both change its project, so they follow its sharing. */
export const archivableTimeEntry = archivable({
  type: 'time_entry',
  find: findTimeEntry,
  setArchived: setTimeEntryArchived,
  answer: (row, auth, now) => versionedTimeEntry(row, holdsBilling(auth), now),
  eventView: timeEntryEventView,
  followsProject: true,
});
