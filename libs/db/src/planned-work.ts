import { type Client, clientOf, type Tx } from './transactions.js';
import { pageIds } from './keyset.js';

/**
 * Planned work (v0: scheduled work): a member's windows on a task. A task's windows form one schedule that
 * is only ever replaced as a whole, inside one transaction that first locks the task row (`FOR UPDATE`),
 * so replacements of one task run one after another and each sees the schedule the previous one committed.
 * Every query is scoped by the workspace id.
 */

export interface PlannedWorkRecord {
  readonly id: string;
  readonly taskId: string;
  readonly projectId: string | null;
  readonly memberId: string;
  readonly windowStart: Date;
  readonly windowEnd: Date;
  readonly minutes: number;
}

const select = {
  id: true,
  taskId: true,
  memberId: true,
  windowStart: true,
  windowEnd: true,
  minutes: true,
  task: { select: { projectId: true } },
} as const;

type Row = Omit<PlannedWorkRecord, 'projectId'> & { task: { projectId: string | null } };

const record = ({ task, ...row }: Row): PlannedWorkRecord => ({ ...row, projectId: task.projectId });

export interface ScheduleTask {
  readonly id: string;
  readonly projectId: string | null;
  readonly archived: boolean;
}

/** The task, locked for the rest of the transaction (serializes replacements of its schedule); null when missing. */
export async function lockScheduleTask(tx: Tx, workspaceId: string, taskId: string): Promise<ScheduleTask | null> {
  const rows = await tx.$queryRaw<{ id: string; project_id: string | null; archived_at: Date | null }[]>`
    SELECT id::text AS id, project_id::text AS project_id, archived_at FROM tasks
     WHERE workspace_id = ${workspaceId}::uuid AND id = ${taskId}::uuid FOR UPDATE`;
  const row = rows[0];
  return row ? { id: row.id, projectId: row.project_id, archived: row.archived_at !== null } : null;
}

/** The task (archived or not) without a lock, for reads; null when missing. */
export async function findScheduleTask(client: Client, workspaceId: string, taskId: string): Promise<ScheduleTask | null> {
  const row = await clientOf(client).task.findFirst({ where: { workspaceId, id: taskId }, select: { id: true, projectId: true, archivedAt: true } });
  return row ? { id: row.id, projectId: row.projectId, archived: row.archivedAt !== null } : null;
}

/** Every window of one task, by start then id. */
export async function listTaskPlannedWork(client: Client, workspaceId: string, taskId: string): Promise<PlannedWorkRecord[]> {
  const rows = await clientOf(client).plannedWork.findMany({ where: { workspaceId, taskId }, orderBy: [{ windowStart: 'asc' }, { id: 'asc' }], select });
  return rows.map(record);
}

export interface PlannedWorkWindow {
  readonly memberId: string;
  readonly windowStart: Date;
  readonly windowEnd: Date;
  readonly minutes: number;
}

/** Deletes the task's windows and inserts these (new ids); run under lockScheduleTask. */
export async function replaceTaskPlannedWorkRows(tx: Tx, workspaceId: string, taskId: string, windows: readonly PlannedWorkWindow[], now: Date): Promise<void> {
  await tx.plannedWork.deleteMany({ where: { workspaceId, taskId } });
  if (windows.length > 0) {
    await tx.plannedWork.createMany({ data: windows.map((w) => ({ workspaceId, taskId, ...w, createdAt: now, updatedAt: now })) });
  }
}

/** Of the given member ids (UUIDs), those of active members of the workspace. */
export async function activeMemberIds(client: Client, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await clientOf(client).workspaceMember.findMany({ where: { workspaceId, id: { in: [...ids] }, status: 'active' }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export interface PlannedWorkFilter {
  /** Windows that overlap [from, to). */
  readonly from: Date;
  readonly to: Date;
  readonly memberId?: string;
  readonly taskId?: string;
  readonly projectId?: string;
  /** A service account's granted task ids (null: every task). */
  readonly taskIds: readonly string[] | null;
}

/** One keyset page (id order) of windows overlapping the range, on unarchived tasks. */
export async function listPlannedWorkPage(client: Client, workspaceId: string, filter: PlannedWorkFilter, afterId: string | undefined, take: number): Promise<PlannedWorkRecord[]> {
  const rows = await clientOf(client).plannedWork.findMany({
    where: {
      workspaceId,
      windowEnd: { gt: filter.from },
      windowStart: { lt: filter.to },
      ...(filter.memberId === undefined ? {} : { memberId: filter.memberId }),
      ...(filter.taskIds === null ? {} : { taskId: { in: [...filter.taskIds] } }),
      ...(filter.taskId === undefined ? {} : { AND: [{ taskId: filter.taskId }] }),
      task: { archivedAt: null, ...(filter.projectId === undefined ? {} : { projectId: filter.projectId }) },
      ...pageIds(afterId),
    },
    orderBy: { id: 'asc' },
    take,
    select,
  });
  return rows.map(record);
}
