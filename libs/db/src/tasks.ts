import { pageIds } from './keyset.js';
import type { Tx } from './credentials.js';
import type { CasOutcome, Client } from './transactions.js';
import { clientOf } from './transactions.js';

/**
 * v1 tasks (issue 6). Every query is scoped by the workspace id; archived tasks stay in the table and are left
 * out of lists. Every If-Match write is one `UPDATE … WHERE revision = $expected` (check and write in one
 * statement): of concurrent writers with one revision exactly one wins, the others get `version_conflict`.
 */

export type TaskPriorityValue = 'low' | 'normal' | 'high' | 'urgent';
export type TaskStatusValue = 'open' | 'in_progress' | 'completed' | 'cancelled';

export interface TaskRecord {
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
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly tagIds: readonly string[];
}

const taskSelect = {
  id: true,
  workspaceId: true,
  projectId: true,
  listId: true,
  assigneeMemberId: true,
  title: true,
  description: true,
  status: true,
  priority: true,
  dueAt: true,
  estimateMinutes: true,
  completedAt: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
  taskTags: { select: { tagId: true }, orderBy: { tagId: 'asc' } },
} as const;

type TaskRow = Omit<TaskRecord, 'tagIds'> & { taskTags: { tagId: string }[] };

function record({ taskTags, ...row }: TaskRow): TaskRecord {
  return { ...row, tagIds: taskTags.map((t) => t.tagId) };
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
  /** Only these ids (a service account's resource grants); absent or null: every row. */
  readonly onlyIds?: readonly string[] | null;
  readonly projectId?: string;
  readonly listId?: string;
  readonly assigneeMemberId?: string;
  /** open: every status but completed */
  readonly status?: 'open' | 'completed';
  readonly updatedSince?: Date;
}

/** due_date (read by the v0 calendar feed) follows due_at: its UTC date. */
function withDueDate<T extends { dueAt?: Date | null }>(fields: T): T & { dueDate?: Date | null } {
  if (fields.dueAt === undefined) return fields;
  return { ...fields, dueDate: fields.dueAt === null ? null : new Date(fields.dueAt.toISOString().slice(0, 10)) };
}

export async function findTask(client: Client, workspaceId: string, id: string): Promise<TaskRecord | null> {
  const row = await clientOf(client).task.findFirst({ where: { workspaceId, id }, select: taskSelect });
  return row ? record(row) : null;
}

/** One keyset page of unarchived tasks in id order. */
export async function listTasksPage(client: Client, workspaceId: string, filter: TaskFilter, afterId: string | undefined, take: number): Promise<TaskRecord[]> {
  const rows = await clientOf(client).task.findMany({
    where: {
      workspaceId,
      archivedAt: null,
      ...(filter.projectId === undefined ? {} : { projectId: filter.projectId }),
      ...(filter.listId === undefined ? {} : { listId: filter.listId }),
      ...(filter.assigneeMemberId === undefined ? {} : { assigneeMemberId: filter.assigneeMemberId }),
      ...(filter.status === undefined ? {} : filter.status === 'completed' ? { status: 'completed' } : { status: { not: 'completed' } }),
      ...(filter.updatedSince === undefined ? {} : { updatedAt: { gte: filter.updatedSince } }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select: taskSelect,
  });
  return rows.map(record);
}

export async function insertTask(tx: Tx, workspaceId: string, input: TaskChanges & { title: string; tagIds: readonly string[] }, now: Date): Promise<TaskRecord> {
  const { tagIds, ...fields } = input;
  const created = await tx.task.create({ data: { workspaceId, ...withDueDate(fields), createdAt: now, updatedAt: now }, select: { id: true } });
  if (tagIds.length > 0) await tx.taskTag.createMany({ data: tagIds.map((tagId) => ({ workspaceId, taskId: created.id, tagId })) });
  return (await findTask(tx, workspaceId, created.id))!;
}

/** The state a guarded task write requires (undefined: any). */
export interface TaskGuard {
  readonly archived?: boolean;
  readonly completed?: boolean;
}

/** Outcome of an If-Match write: a stale revision wins over a state conflict (the caller must re-read first). */
export type GuardedOutcome = CasOutcome | 'state_conflict';

/**
 * If-Match write of a task: the revision check, the state guard and the write are one statement; tag
 * links, when given, are replaced after it under the row lock it took.
 */
export async function updateTaskIfRevision(
  tx: Tx,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  guard: TaskGuard,
  changes: TaskChanges & { tagIds?: readonly string[] },
  now: Date,
): Promise<GuardedOutcome> {
  const { tagIds, ...fields } = changes;
  const { count } = await tx.task.updateMany({
    where: {
      workspaceId,
      id,
      revision: expectedRevision,
      ...(guard.archived === undefined ? {} : { archivedAt: guard.archived ? { not: null } : null }),
      ...(guard.completed === undefined ? {} : { status: guard.completed ? 'completed' : { not: 'completed' } }),
    },
    data: { ...withDueDate(fields), updatedAt: now, revision: { increment: 1 } },
  });
  if (count !== 1) {
    const current = await tx.task.findFirst({ where: { workspaceId, id }, select: { revision: true } });
    return current === null ? 'not_found' : current.revision !== expectedRevision ? 'version_conflict' : 'state_conflict';
  }
  if (tagIds !== undefined) {
    await tx.taskTag.deleteMany({ where: { workspaceId, taskId: id } });
    if (tagIds.length > 0) await tx.taskTag.createMany({ data: tagIds.map((tagId) => ({ workspaceId, taskId: id, tagId })) });
  }
  return 'updated';
}

/** Whether the id (a UUID) names an unarchived project of the workspace. */
export async function projectExists(client: Client, workspaceId: string, id: string): Promise<boolean> {
  return (await clientOf(client).project.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}

/** Whether the id (a UUID) names an unarchived list of the workspace. */
export async function listExists(client: Client, workspaceId: string, id: string): Promise<boolean> {
  return (await clientOf(client).list.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}
