import { Prisma } from './generated/prisma/client.js';
import { type DomainEvent, executeWithOutboxEvent } from './outbox.js';
import { uuidv7 } from './uuidv7.js';
import { resourceReadableSql, type Viewer } from './visibility.js';
import type { Db } from './database.js';
import { type GuardedOutcome, guardedMiss, type RevisionedFields } from './revisioned-rows.js';
import { replaceTagLinks } from './tags.js';

/**
 * v1 tasks (issue 6). Every query is scoped by the workspace id; archived tasks stay in the table and are left
 * out of lists. Every If-Match write is one `UPDATE … WHERE revision = $expected` (check and write in one
 * statement): of concurrent writers with one revision exactly one wins, the others get `version_conflict`.
 */

export type TaskPriorityValue = 'low' | 'normal' | 'high' | 'urgent';
export type TaskStatusValue = 'open' | 'in_progress' | 'completed' | 'cancelled';

export interface TaskRecord extends RevisionedFields {
  readonly id: string;
  readonly workspaceId: string;
  readonly projectId: string | null;
  readonly listId: string | null;
  readonly assigneeMemberId: string | null;
  readonly title: string;
  readonly description: string | null;
  readonly status: TaskStatusValue;
  readonly priority: TaskPriorityValue;
  readonly dueAt: Date | null;
  readonly estimateMinutes: number | null;
  readonly completedAt: Date | null;
  readonly tagIds: readonly string[];
  /** When the viewing member's running timer runs on this task: its start (null for every other reader). */
  readonly timerStartedAt: Date | null;
}

/** Attributes a task write may set (undefined: unchanged). */
export interface TaskChanges {
  readonly title?: string;
  readonly description?: string | null;
  readonly priority?: TaskPriorityValue;
  readonly assigneeMemberId?: string | null;
  readonly dueAt?: Date | null;
  readonly estimateMinutes?: number | null;
  readonly projectId?: string | null;
  readonly listId?: string | null;
  readonly status?: TaskStatusValue;
  readonly completedAt?: Date | null;
  readonly archivedAt?: Date | null;
}

export interface TaskFilter {
  readonly projectId?: string;
  readonly listId?: string;
  readonly assigneeMemberId?: string;
  /** open: every status but completed */
  readonly status?: 'open' | 'completed';
  readonly updatedSince?: Date;
}

/** A task row `t` as a TaskRecord (uuids as text, enums as their labels). */
const RECORD_COLUMNS = Prisma.sql`
  t.id::text AS id, t.workspace_id::text AS "workspaceId", t.project_id::text AS "projectId", t.list_id::text AS "listId",
  t.assignee_member_id::text AS "assigneeMemberId", t.title, t.description, t.status::text AS status, t.priority::text AS priority,
  t.due_at AS "dueAt", t.estimate_minutes AS "estimateMinutes", t.completed_at AS "completedAt", t.revision,
  t.archived_at AS "archivedAt", t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

/**
 * Every read of a task is one statement: the row, its tag ids (in id order) and, for a viewing member, the start
 * of that member's running timer when it runs on this task (the partial unique index time_entries_one_running_timer_key
 * finds it). Raw SQL because the ORM path spends several times the database's own work on a read this simple
 * (docs: /work/shared/notes/performance-floor.md, issue 11).
 */
function selectTasks(viewerMemberId: string | null, where: Prisma.Sql, tail: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    SELECT ${RECORD_COLUMNS},
      ARRAY(SELECT tt.tag_id::text FROM task_tags tt WHERE tt.workspace_id = t.workspace_id AND tt.task_id = t.id ORDER BY tt.tag_id) AS "tagIds",
      te.started_at AS "timerStartedAt"
    FROM tasks t
    LEFT JOIN time_entries te
      ON te.workspace_id = t.workspace_id AND te.member_id = ${viewerMemberId}::uuid AND te.stopped_at IS NULL AND te.task_id = t.id
    WHERE ${where}
    ${tail}`;
}

/** Whether the viewer may see task row `t` (visibility.ts: grants and its project's sharing, by the row's own project). */
const taskReadable = (viewer: Viewer) => resourceReadableSql('task', Prisma.sql`t.workspace_id`, Prisma.sql`t.id`, viewer, { project: Prisma.sql`t.project_id` });

/**
 * One task (archived ones too) as `viewer` sees it: only one it may see, with its member's running timer. Without
 * a viewer: the platform's own read (after a write the caller was allowed to make), showing no timer.
 */
export async function findTask(client: Db, workspaceId: string, id: string, viewer: Viewer | null = null): Promise<TaskRecord | null> {
  const where = Prisma.sql`t.workspace_id = ${workspaceId}::uuid AND t.id = ${id}::uuid AND ${viewer === null ? Prisma.sql`true` : taskReadable(viewer)}`;
  const rows = await client.rows<TaskRecord>(selectTasks(viewer?.memberId ?? null, where));
  return rows[0] ?? null;
}

/** One keyset page of the unarchived tasks `viewer` may see, in id order: one statement, tags and its timer included. */
export async function listTasksPage(client: Db, workspaceId: string, filter: TaskFilter, afterId: string | undefined, take: number, viewer: Viewer): Promise<TaskRecord[]> {
  const where = [Prisma.sql`t.workspace_id = ${workspaceId}::uuid`, Prisma.sql`t.archived_at IS NULL`];
  if (filter.projectId !== undefined) where.push(Prisma.sql`t.project_id = ${filter.projectId}::uuid`);
  if (filter.listId !== undefined) where.push(Prisma.sql`t.list_id = ${filter.listId}::uuid`);
  if (filter.assigneeMemberId !== undefined) where.push(Prisma.sql`t.assignee_member_id = ${filter.assigneeMemberId}::uuid`);
  if (filter.status !== undefined) where.push(filter.status === 'completed' ? Prisma.sql`t.status = 'completed'` : Prisma.sql`t.status <> 'completed'`);
  if (filter.updatedSince !== undefined) where.push(Prisma.sql`t.updated_at >= ${filter.updatedSince}::timestamptz`);
  if (afterId !== undefined) where.push(Prisma.sql`t.id > ${afterId}::uuid`);
  where.push(taskReadable(viewer));
  return client.rows<TaskRecord>(selectTasks(viewer.memberId, Prisma.join(where, ' AND '), Prisma.sql`ORDER BY t.id LIMIT ${take}`));
}

/** The columns of the attributes a write sets (undefined: left out, so a column default applies on insert). */
function taskColumns(fields: TaskChanges): [string, Prisma.Sql][] {
  const columns: [string, Prisma.Sql][] = [];
  const set = (column: string, value: unknown, sql: Prisma.Sql) => void (value !== undefined && columns.push([column, sql]));
  set('title', fields.title, Prisma.sql`${fields.title}`);
  set('description', fields.description, Prisma.sql`${fields.description}`);
  set('priority', fields.priority, Prisma.sql`${fields.priority}::task_priority`);
  set('assignee_member_id', fields.assigneeMemberId, Prisma.sql`${fields.assigneeMemberId}::uuid`);
  set('estimate_minutes', fields.estimateMinutes, Prisma.sql`${fields.estimateMinutes}::int`);
  set('project_id', fields.projectId, Prisma.sql`${fields.projectId}::uuid`);
  set('list_id', fields.listId, Prisma.sql`${fields.listId}::uuid`);
  set('status', fields.status, Prisma.sql`${fields.status}::task_status`);
  set('completed_at', fields.completedAt, Prisma.sql`${fields.completedAt}::timestamptz`);
  set('archived_at', fields.archivedAt, Prisma.sql`${fields.archivedAt}::timestamptz`);
  set('due_at', fields.dueAt, Prisma.sql`${fields.dueAt}::timestamptz`);
  // due_date (read by the v0 calendar feed) follows due_at: its UTC date.
  set('due_date', fields.dueAt, Prisma.sql`${fields.dueAt?.toISOString().slice(0, 10) ?? null}::date`);
  return columns;
}

/** A new open task (revision 1, its id made here, tag ids in id order): what insertTask writes and every read returns. */
export function newTask(workspaceId: string, input: TaskChanges & { title: string; tagIds: readonly string[] }, now: Date): TaskRecord {
  return {
    id: uuidv7(),
    workspaceId,
    projectId: input.projectId ?? null,
    listId: input.listId ?? null,
    assigneeMemberId: input.assigneeMemberId ?? null,
    title: input.title,
    description: input.description ?? null,
    status: input.status ?? 'open',
    priority: input.priority ?? 'normal',
    dueAt: input.dueAt ?? null,
    estimateMinutes: input.estimateMinutes ?? null,
    completedAt: input.completedAt ?? null,
    revision: 1,
    archivedAt: input.archivedAt ?? null,
    createdAt: now,
    updatedAt: now,
    tagIds: [...input.tagIds].sort(),
    timerStartedAt: null,
  };
}

/**
 * Inserts a task from newTask, its tag links and its creation event in one statement: atomic by itself, so
 * outside a transaction it needs no BEGIN/COMMIT, and the workspace's event counter row is held only while the
 * statement runs.
 */
export async function insertTask(client: Db, task: TaskRecord, event: DomainEvent): Promise<void> {
  const columns = [
    ['id', Prisma.sql`${task.id}::uuid`],
    ...taskColumns(task),
    ['revision', Prisma.sql`${task.revision}::int`],
    ['created_at', Prisma.sql`${task.createdAt}::timestamptz`],
    ['updated_at', Prisma.sql`${task.updatedAt}::timestamptz`],
  ] as [string, Prisma.Sql][];
  await executeWithOutboxEvent(
    client,
    Prisma.sql`task AS (
      INSERT INTO tasks (workspace_id, ${Prisma.raw(columns.map(([column]) => column).join(', '))})
      VALUES (${task.workspaceId}::uuid, ${Prisma.join(columns.map(([, value]) => value))})
    ), tags AS (
      INSERT INTO task_tags (workspace_id, task_id, tag_id)
      SELECT ${task.workspaceId}::uuid, ${task.id}::uuid, tag_id FROM unnest(${[...task.tagIds]}::uuid[]) AS tag_id
    )`,
    event,
  );
}

/** The state a guarded task write requires (undefined: any). */
export interface TaskGuard {
  readonly archived?: boolean;
  readonly completed?: boolean;
}

/**
 * If-Match write of a task: the revision check, the state guard and the write are one statement; tag
 * links, when given, are replaced after it under the row lock it took.
 */
export async function updateTaskIfRevision(
  tx: Db,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  guard: TaskGuard,
  changes: TaskChanges & { tagIds?: readonly string[] },
  now: Date,
): Promise<GuardedOutcome> {
  const { tagIds, ...fields } = changes;
  const set = [...taskColumns(fields).map(([column, value]) => Prisma.sql`${Prisma.raw(column)} = ${value}`), Prisma.sql`updated_at = ${now}::timestamptz`, Prisma.sql`revision = revision + 1`];
  const where = [Prisma.sql`workspace_id = ${workspaceId}::uuid`, Prisma.sql`id = ${id}::uuid`, Prisma.sql`revision = ${expectedRevision}::int`];
  if (guard.archived !== undefined) where.push(guard.archived ? Prisma.sql`archived_at IS NOT NULL` : Prisma.sql`archived_at IS NULL`);
  if (guard.completed !== undefined) where.push(guard.completed ? Prisma.sql`status = 'completed'` : Prisma.sql`status <> 'completed'`);
  const count = await tx.prisma.$executeRaw`UPDATE tasks SET ${Prisma.join(set)} WHERE ${Prisma.join(where, ' AND ')}`;
  if (count !== 1) return guardedMiss(tx.prisma.task, workspaceId, id, expectedRevision);
  if (tagIds !== undefined) await replaceTagLinks(tx.prisma.taskTag, workspaceId, { taskId: id }, tagIds);
  return 'updated';
}

/** Whether the id (a UUID) names an unarchived project of the workspace. */
export async function projectExists(client: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await client.rows(Prisma.sql`SELECT 1 AS found FROM projects WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND archived_at IS NULL`);
  return rows.length === 1;
}

/** Whether the id (a UUID) names an unarchived task of the workspace. */
export async function taskExists(client: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await client.rows(Prisma.sql`SELECT 1 AS found FROM tasks WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND archived_at IS NULL`);
  return rows.length === 1;
}

/** Whether the id (a UUID) names an unarchived list of the workspace. */
export async function listExists(client: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await client.rows(Prisma.sql`SELECT 1 AS found FROM lists WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND archived_at IS NULL`);
  return rows.length === 1;
}
