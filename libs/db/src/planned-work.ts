import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { resourceReadableSql, type Viewer } from './visibility.js';

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

const record = ({ task, ...row }: Row): PlannedWorkRecord => Object.assign(row, { projectId: task.projectId });

export interface ScheduleTask {
  readonly id: string;
  readonly projectId: string | null;
  readonly archived: boolean;
}

/** The task, locked for the rest of the transaction (serializes replacements of its schedule); null when missing. */
export async function lockScheduleTask(tx: Db, workspaceId: string, taskId: string): Promise<ScheduleTask | null> {
  const rows = await tx.prisma.$queryRaw<{ id: string; project_id: string | null; archived_at: Date | null }[]>`
    SELECT id::text AS id, project_id::text AS project_id, archived_at FROM tasks
     WHERE workspace_id = ${workspaceId}::uuid AND id = ${taskId}::uuid FOR UPDATE`;
  const row = rows[0];
  return row ? { id: row.id, projectId: row.project_id, archived: row.archived_at !== null } : null;
}

/** Whether the viewer may see task row `t` (visibility.ts: task grants and its project's sharing): planned work is part of its task. */
const taskReadable = (viewer: Viewer) => resourceReadableSql('task', Prisma.sql`t.workspace_id`, Prisma.sql`t.id`, viewer, { project: Prisma.sql`t.project_id` });

/** The task (archived or not) without a lock, for reads; null when missing or, with a viewer, not one it may see. */
export async function findScheduleTask(client: Db, workspaceId: string, taskId: string, viewer: Viewer | null = null): Promise<ScheduleTask | null> {
  const visible = viewer === null ? Prisma.sql`true` : taskReadable(viewer);
  const rows = await client.rows<{ id: string; projectId: string | null; archivedAt: Date | null }>(
    Prisma.sql`SELECT t.id::text AS id, t.project_id::text AS "projectId", t.archived_at AS "archivedAt" FROM tasks t WHERE t.workspace_id = ${workspaceId}::uuid AND t.id = ${taskId}::uuid AND ${visible}`,
  );
  const row = rows[0];
  return row ? { id: row.id, projectId: row.projectId, archived: row.archivedAt !== null } : null;
}

/** Every window of one task, by start then id. */
export async function listTaskPlannedWork(client: Db, workspaceId: string, taskId: string): Promise<PlannedWorkRecord[]> {
  const rows = await client.prisma.plannedWork.findMany({ where: { workspaceId, taskId }, orderBy: [{ windowStart: 'asc' }, { id: 'asc' }], select });
  return rows.map(record);
}

export interface PlannedWorkWindow {
  readonly memberId: string;
  readonly windowStart: Date;
  readonly windowEnd: Date;
  readonly minutes: number;
}

/** Deletes the task's windows and inserts these (new ids); run under lockScheduleTask. */
export async function replaceTaskPlannedWorkRows(tx: Db, workspaceId: string, taskId: string, windows: readonly PlannedWorkWindow[], now: Date): Promise<void> {
  await tx.prisma.plannedWork.deleteMany({ where: { workspaceId, taskId } });
  if (windows.length > 0) {
    await tx.prisma.plannedWork.createMany({ data: windows.map((w) => ({ workspaceId, taskId, ...w, createdAt: now, updatedAt: now })) });
  }
}

/** Of the given member ids (UUIDs), those of active members of the workspace. */
export async function activeMemberIds(client: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await client.prisma.workspaceMember.findMany({ where: { workspaceId, id: { in: [...ids] }, status: 'active' }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export interface PlannedWorkFilter {
  /** Windows that overlap [from, to). */
  readonly from: Date;
  readonly to: Date;
  readonly memberId?: string;
  readonly taskId?: string;
  readonly projectId?: string;
}

/** One keyset page (id order) of windows overlapping the range, on unarchived tasks the viewer may see. */
export async function listPlannedWorkPage(client: Db, workspaceId: string, filter: PlannedWorkFilter, afterId: string | undefined, take: number, viewer: Viewer): Promise<PlannedWorkRecord[]> {
  const where = [
    Prisma.sql`w.workspace_id = ${workspaceId}::uuid`,
    Prisma.sql`w.window_end > ${filter.from}::timestamptz`,
    Prisma.sql`w.window_start < ${filter.to}::timestamptz`,
    Prisma.sql`t.archived_at IS NULL`,
  ];
  if (filter.memberId !== undefined) where.push(Prisma.sql`w.member_id = ${filter.memberId}::uuid`);
  if (filter.taskId !== undefined) where.push(Prisma.sql`w.task_id = ${filter.taskId}::uuid`);
  if (filter.projectId !== undefined) where.push(Prisma.sql`t.project_id = ${filter.projectId}::uuid`);
  if (afterId !== undefined) where.push(Prisma.sql`w.id > ${afterId}::uuid`);
  where.push(taskReadable(viewer));
  return client.rows<PlannedWorkRecord>(Prisma.sql`SELECT w.id::text AS id, w.task_id::text AS "taskId", t.project_id::text AS "projectId", w.member_id::text AS "memberId",
        w.window_start AS "windowStart", w.window_end AS "windowEnd", w.minutes
      FROM planned_work w JOIN tasks t ON t.workspace_id = w.workspace_id AND t.id = w.task_id
      WHERE ${Prisma.join(where, ' AND ')} ORDER BY w.id LIMIT ${take}`);
}
