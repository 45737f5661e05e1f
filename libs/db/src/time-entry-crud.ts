import { type RevisionedFields, setArchivedAt } from './revisioned-rows.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';
import { projectReadableSql, resourceReadableSql, timeEntryProjectSql, type Viewer } from './visibility.js';

/**
 * v1 time entries (issue 6): manual entries and running timers (`stopped_at IS NULL`, at most one per member
 * by the partial unique index time_entries_one_running_timer_key), their compare-and-set updates and their
 * billing state. Archive never deletes. Every query is scoped by the workspace id.
 */

export interface TimeEntryValues {
  readonly memberId: string;
  readonly projectId: string | null;
  readonly taskId: string | null;
  readonly description: string | null;
  readonly startedAt: Date;
  readonly stoppedAt: Date | null;
  readonly durationSeconds: number | null;
}

/** An entry: its attributes (TimeEntryValues), its billing state and its revision (RevisionedFields). */
export type TimeEntryRow = Readonly<
  { id: string; workspaceId: string } & TimeEntryValues & {
      billable: boolean;
      /** numeric(14,4) as a decimal string, or null. */
      billingRate: string | null;
      billingCurrency: string | null;
    } & RevisionedFields
>;

/** A time entry row `e` as a TimeEntryRow (billing_rate as text, normalised as Prisma's Decimal prints it: see `record`). */
const RECORD_COLUMNS = Prisma.sql`
  e.id::text AS id, e.workspace_id::text AS "workspaceId", e.member_id::text AS "memberId", e.project_id::text AS "projectId", e.task_id::text AS "taskId",
  e.description, e.started_at AS "startedAt", e.stopped_at AS "stoppedAt", e.duration_seconds AS "durationSeconds", e.billable,
  e.billing_rate::text AS "billingRate", e.billing_currency::text AS "billingCurrency", e.revision, e.archived_at AS "archivedAt", e.created_at AS "createdAt", e.updated_at AS "updatedAt"`;

function record(row: TimeEntryRow): TimeEntryRow {
  return { ...row, billingRate: row.billingRate === null ? null : new Prisma.Decimal(row.billingRate).toString() };
}

/** Whether the viewer may see time entry row `e` (visibility.ts: grants, and the sharing of its project or else its task's). */
const entryReadable = (viewer: Viewer) =>
  resourceReadableSql('time_entry', Prisma.sql`e.workspace_id`, Prisma.sql`e.id`, viewer, {
    project: timeEntryProjectSql('e'),
  });

/**
 * One time entry of the workspace, archived or not; with a viewer, only one it may see (visibility.ts, in the
 * statement). Without one: the platform's own read (after a write the caller was allowed to make).
 */
export async function findTimeEntry(client: Db, workspaceId: string, id: string, viewer: Viewer | null = null): Promise<TimeEntryRow | null> {
  const visible = viewer === null ? Prisma.sql`true` : entryReadable(viewer);
  const rows = await client.rows<TimeEntryRow>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM time_entries e WHERE e.workspace_id = ${workspaceId}::uuid AND e.id = ${id}::uuid AND ${visible}`);
  return rows[0] ? record(rows[0]) : null;
}

export interface TimeEntryFilter {
  readonly taskId?: string | undefined;
  readonly projectId?: string | undefined;
  readonly memberId?: string | undefined;
  readonly startedFrom?: Date | undefined;
  readonly startedTo?: Date | undefined;
}

/** One keyset page of the workspace's unarchived time entries the viewer may see, in id order. */
export async function listTimeEntriesPage(client: Db, workspaceId: string, filter: TimeEntryFilter, afterId: string | undefined, take: number, viewer: Viewer): Promise<TimeEntryRow[]> {
  const where = [Prisma.sql`e.workspace_id = ${workspaceId}::uuid`, Prisma.sql`e.archived_at IS NULL`];
  if (filter.taskId !== undefined) where.push(Prisma.sql`e.task_id = ${filter.taskId}::uuid`);
  if (filter.projectId !== undefined) where.push(Prisma.sql`e.project_id = ${filter.projectId}::uuid`);
  if (filter.memberId !== undefined) where.push(Prisma.sql`e.member_id = ${filter.memberId}::uuid`);
  if (filter.startedFrom !== undefined) where.push(Prisma.sql`e.started_at >= ${filter.startedFrom}::timestamptz`);
  if (filter.startedTo !== undefined) where.push(Prisma.sql`e.started_at < ${filter.startedTo}::timestamptz`);
  if (afterId !== undefined) where.push(Prisma.sql`e.id > ${afterId}::uuid`);
  where.push(entryReadable(viewer));
  const rows = await client.rows<TimeEntryRow>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM time_entries e WHERE ${Prisma.join(where, ' AND ')} ORDER BY e.id LIMIT ${take}`);
  return rows.map(record);
}

/**
 * The project of an unarchived task of the workspace: undefined when there is no such task, or (with a viewer) when
 * its project's sharing hides it from the viewer (visibility.ts; sharing only: a reference is not bounded by task grants).
 */
export async function taskProjectOf(client: Db, workspaceId: string, taskId: string, viewer: Viewer | null = null): Promise<{ projectId: string | null } | undefined> {
  const visible = viewer === null ? Prisma.sql`true` : projectReadableSql(Prisma.sql`t.workspace_id`, Prisma.sql`t.project_id`, viewer);
  const rows = await client.rows<{ projectId: string | null }>(
    Prisma.sql`SELECT t.project_id::text AS "projectId" FROM tasks t WHERE t.workspace_id = ${workspaceId}::uuid AND t.id = ${taskId}::uuid AND t.archived_at IS NULL AND ${visible}`,
  );
  return rows[0];
}

/**
 * A new time entry. A running one (`stoppedAt` null) is an `INSERT … ON CONFLICT DO NOTHING` against the
 * one-running-timer index: null when the member already has a running timer (nothing is written).
 */
export async function insertTimeEntry(tx: Db, workspaceId: string, v: TimeEntryValues, now: Date): Promise<TimeEntryRow | null> {
  const rows = await tx.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO time_entries (workspace_id, member_id, task_id, project_id, description, started_at, stopped_at, duration_seconds, created_at, updated_at)
    VALUES (${workspaceId}::uuid, ${v.memberId}::uuid, ${v.taskId}::uuid, ${v.projectId}::uuid, ${v.description}, ${v.startedAt}, ${v.stoppedAt}, ${v.durationSeconds}, ${now}, ${now})
    ON CONFLICT (workspace_id, member_id) WHERE stopped_at IS NULL DO NOTHING
    RETURNING id::text AS id`;
  const id = rows[0]?.id;
  return id === undefined ? null : findTimeEntry(tx, workspaceId, id);
}

/** Compare-and-set of the entry's attributes: one `UPDATE … WHERE revision = $expected`. */
export async function updateTimeEntryIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, v: TimeEntryValues): Promise<CasOutcome> {
  const { count } = await tx.prisma.timeEntry.updateMany({
    where: { workspaceId, id, revision: expectedRevision },
    data: { ...v, revision: { increment: 1 } },
  });
  if (count === 1) return 'updated';
  return (await tx.prisma.timeEntry.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Compare-and-set of the billing state. */
export async function setTimeEntryBillingIfRevision(
  tx: Db,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  billing: { billable: boolean; rate: { amount: string; currency: string } | null },
): Promise<CasOutcome> {
  const { count } = await tx.prisma.timeEntry.updateMany({
    where: { workspaceId, id, revision: expectedRevision },
    data: {
      billable: billing.billable,
      billingRate: billing.rate === null ? null : new Prisma.Decimal(billing.rate.amount),
      billingCurrency: billing.rate?.currency ?? null,
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await tx.prisma.timeEntry.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Sets or clears `archived_at`; false when the entry is missing or already in that state. */
export function setTimeEntryArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.timeEntry, workspaceId, id, archivedAt);
}
