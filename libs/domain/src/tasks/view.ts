import { type Db, findTask, isTransaction, listExists, lockExistingMemberIds, projectExists, type TaskChanges, type TaskGuard, type TaskRecord, updateTaskIfRevision } from '@workcell/db';
import { TaskCreate } from '@workcell/registry';

import { requireGrant } from '../kernel/grants.js';
import { requireProjectAccess, requireResourceAccess, viewerOf } from '../kernel/visibility.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { ifMatchFailure } from '../kernel/if-match.js';
import type { Operation } from '../kernel/procedure.js';
import { tagIssues } from '../tags/tag-issues.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/**
 * What the task procedures share. Decisions (issue 6):
 * - A task has at most one assignee (tasks.assignee_member_id): `assigneeIds` takes zero or one member id;
 *   more is 400 with a pointer. Assignees are unremoved members of the workspace.
 * - `status` is `completed` or `open` (the stored in_progress/cancelled read as open); completeTask and
 *   reopenTask move between them, and completing a completed task (or reopening an open one) is 409 conflict.
 * - Archived tasks are read-only: every If-Match write but restoreTask answers 409 conflict on them.
 * - `timerStartedAt` is the start of the *acting member's* running timer when it runs on this task.
 */

/** A task as the registry's Task (`revision` mirrors the strong ETag). */
export interface TaskView extends ArchivableView {
  readonly title: string;
  readonly description: string | null;
  readonly projectId: string | null;
  readonly listId: string | null;
  readonly status: 'open' | 'completed';
  readonly priority: 'low' | 'normal' | 'high' | 'urgent';
  readonly assigneeIds: readonly string[];
  readonly dueAt: string | null;
  readonly estimateMinutes: number | null;
  readonly tagIds: readonly string[];
  readonly completedAt: string | null;
  readonly timerStartedAt: string | null;
  readonly revision: string;
}

export function taskView(row: TaskRecord): TaskView {
  return withArchivableFields(row, {
    title: row.title,
    description: row.description,
    projectId: row.projectId,
    listId: row.listId,
    status: row.status === 'completed' ? 'completed' : 'open',
    priority: row.priority,
    assigneeIds: row.assigneeMemberId === null ? [] : [row.assigneeMemberId],
    dueAt: row.dueAt?.toISOString() ?? null,
    estimateMinutes: row.estimateMinutes,
    tagIds: row.tagIds,
    completedAt: row.completedAt?.toISOString() ?? null,
    timerStartedAt: row.timerStartedAt?.toISOString() ?? null,
    revision: String(row.revision),
  });
}

/** The mutable attributes of registry TaskCreate / TaskUpdate (project and list move with moveTask), as the registry declares them. */
export const taskAttributes = TaskCreate.omit({ projectId: true, listId: true }).shape;

export interface TaskAttributes {
  title?: string | undefined;
  description?: string | null | undefined;
  priority?: 'low' | 'normal' | 'high' | 'urgent' | undefined;
  assigneeIds?: readonly string[] | undefined;
  dueAt?: string | null | undefined;
  estimateMinutes?: number | null | undefined;
  tagIds?: readonly string[] | undefined;
  projectId?: string | null | undefined;
  listId?: string | null | undefined;
}

const lower = (value: string | null) => (value === null ? null : value.toLowerCase());

export function taskChanges(input: TaskAttributes): TaskChanges & { tagIds?: readonly string[] } {
  return {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.priority === undefined ? {} : { priority: input.priority }),
    ...(input.assigneeIds === undefined ? {} : { assigneeMemberId: lower(input.assigneeIds[0] ?? null) }),
    ...(input.dueAt === undefined ? {} : { dueAt: input.dueAt === null ? null : new Date(input.dueAt) }),
    ...(input.estimateMinutes === undefined ? {} : { estimateMinutes: input.estimateMinutes }),
    ...(input.tagIds === undefined ? {} : { tagIds: input.tagIds.map((t) => t.toLowerCase()) }),
    ...(input.projectId === undefined ? {} : { projectId: lower(input.projectId) }),
    ...(input.listId === undefined ? {} : { listId: lower(input.listId) }),
  };
}

/**
 * Every reference in the body must name a row of the caller's workspace: otherwise 400 with a JSON pointer. The
 * project, list and tag checks take no lock and may run outside a transaction; an assignee's member row is locked
 * until commit, so that check needs the transaction that writes the task.
 */
export async function assertTaskReferences(client: Db, workspaceId: string, input: TaskAttributes): Promise<void> {
  const issues = await taskReferenceIssues(client, workspaceId, input);
  if (issues.length > 0) throw new DomainError('validation_failed', 'the request refers to resources that do not exist in this workspace', issues);
}

/** The references of a task body that name no row of the workspace (assertTaskReferences' issues; automations check step inputs with it). */
export async function taskReferenceIssues(client: Db, workspaceId: string, input: TaskAttributes): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  if (input.projectId != null && !(isUuid(input.projectId) && (await projectExists(client, workspaceId, input.projectId.toLowerCase())))) {
    issues.push({ pointer: '/projectId', message: 'no such project in this workspace' });
  }
  if (input.listId != null && !(isUuid(input.listId) && (await listExists(client, workspaceId, input.listId.toLowerCase())))) {
    issues.push({ pointer: '/listId', message: 'no such list in this workspace' });
  }
  if (input.assigneeIds !== undefined) {
    input.assigneeIds.slice(1).forEach((_, i) => issues.push({ pointer: `/assigneeIds/${i + 1}`, message: 'a task has at most one assignee' }));
    const first = input.assigneeIds[0];
    if (first !== undefined && !isTransaction(client)) throw new Error('an assignee check must run in the transaction that writes the task');
    if (first !== undefined && !(isUuid(first) && (await lockExistingMemberIds(client, workspaceId, [first.toLowerCase()])).has(first.toLowerCase()))) {
      issues.push({ pointer: '/assigneeIds/0', message: 'no such member in this workspace' });
    }
  }
  issues.push(...(await tagIssues(client, workspaceId, input.tagIds)));
  return issues;
}

export function taskNotFound(): DomainError {
  return new DomainError('not_found', 'task not found');
}

/** The task id of a path, lower-cased; anything but a UUID names nothing (404) without asking the database. */
export function taskIdOf(raw: string): string {
  if (!isUuid(raw)) throw taskNotFound();
  return raw.toLowerCase();
}

/**
 * One If-Match write of a task and its domain event, in one transaction: references are checked, then the
 * revision, the state guard and the change are applied by one statement (stale: 412, wrong state: 409),
 * then `task.<event>` is appended to the outbox.
 */
export async function writeTask(
  op: Operation,
  write: {
    id: string;
    expectedRevision: number;
    guard: TaskGuard;
    attributes: TaskAttributes;
    extra?: TaskChanges;
    event: string;
    stateConflict: string;
  },
): Promise<TaskView> {
  const { auth } = op;
  requireGrant(auth, 'task', write.id, 'write', 'task');
  const workspaceId = auth.workspaceId;
  const id = taskIdOf(write.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    // Sharing: the task's project now and, for a move, the project it goes to (kernel/visibility.ts).
    await requireResourceAccess(tx, auth, 'task', id, 'write', 'task');
    if (write.attributes.projectId != null) await requireProjectAccess(tx, auth, write.attributes.projectId, 'write', 'project', '/projectId');
    await assertTaskReferences(tx, workspaceId, write.attributes);
    const changes = { ...taskChanges(write.attributes), ...write.extra };
    const outcome = await updateTaskIfRevision(tx, workspaceId, id, write.expectedRevision, write.guard, changes, now);
    if (outcome !== 'updated') throw ifMatchFailure(outcome, 'task', write.stateConflict);
    const view = taskView((await findTask(tx, workspaceId, id, viewerOf(auth)))!);
    await op.emit(tx, {
      aggregateType: 'task',
      aggregateId: id,
      eventType: write.event,
      payload: { task: { ...view, timerStartedAt: null }, changed: Object.keys(write.attributes), requestId: op.requestId },
      occurredAt: now,
    });
    return view;
  });
}
