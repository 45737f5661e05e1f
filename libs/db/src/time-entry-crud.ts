import { setArchivedAt } from './revisioned-rows.js';
import { pageIds } from './keyset.js';
import { type CasOutcome, type Client, clientOf, type Tx } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * v1 time entries (issue 6): manual entries and running timers (`stopped_at IS NULL`, at most one per member
 * by the partial unique index time_entries_one_running_timer_key), their compare-and-set updates and their
 * billing state. Archive never deletes. Every query is scoped by the workspace id.
 */

export interface TimeEntryRow {
  readonly id: string;
  readonly workspaceId: string;
  readonly memberId: string;
  readonly projectId: string | null;
  readonly taskId: string | null;
  readonly description: string | null;
  readonly startedAt: Date;
  readonly stoppedAt: Date | null;
  readonly durationSeconds: number | null;
  readonly billable: boolean;
  /** numeric(14,4) as a decimal string, or null. */
  readonly billingRate: string | null;
  readonly billingCurrency: string | null;
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const select = {
  id: true,
  workspaceId: true,
  memberId: true,
  projectId: true,
  taskId: true,
  description: true,
  startedAt: true,
  stoppedAt: true,
  durationSeconds: true,
  billable: true,
  billingRate: true,
  billingCurrency: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.TimeEntrySelect;

type Row = Prisma.TimeEntryGetPayload<{ select: typeof select }>;

function record(row: Row): TimeEntryRow {
  return { ...row, billingRate: row.billingRate === null ? null : row.billingRate.toString() };
}

/** One time entry of the workspace, archived or not. */
export async function findTimeEntry(client: Client, workspaceId: string, id: string): Promise<TimeEntryRow | null> {
  const row = await clientOf(client).timeEntry.findFirst({ where: { workspaceId, id }, select });
  return row ? record(row) : null;
}

export interface TimeEntryFilter {
  /** Only these ids (a service account's resource grants); absent or null: every row. */
  readonly onlyIds?: readonly string[] | null;
  readonly taskId?: string | undefined;
  readonly projectId?: string | undefined;
  readonly memberId?: string | undefined;
  readonly startedFrom?: Date | undefined;
  readonly startedTo?: Date | undefined;
}

/** One keyset page of the workspace's unarchived time entries in id order. */
export async function listTimeEntriesPage(client: Client, workspaceId: string, filter: TimeEntryFilter, afterId: string | undefined, take: number): Promise<TimeEntryRow[]> {
  const rows = await clientOf(client).timeEntry.findMany({
    where: {
      workspaceId,
      archivedAt: null,
      ...(filter.taskId === undefined ? {} : { taskId: filter.taskId }),
      ...(filter.projectId === undefined ? {} : { projectId: filter.projectId }),
      ...(filter.memberId === undefined ? {} : { memberId: filter.memberId }),
      ...(filter.startedFrom === undefined && filter.startedTo === undefined
        ? {}
        : { startedAt: { ...(filter.startedFrom === undefined ? {} : { gte: filter.startedFrom }), ...(filter.startedTo === undefined ? {} : { lt: filter.startedTo }) } }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select,
  });
  return rows.map(record);
}

/** The project of an unarchived task of the workspace: undefined when there is no such task. */
export async function taskProjectOf(client: Client, workspaceId: string, taskId: string): Promise<{ projectId: string | null } | undefined> {
  const row = await clientOf(client).task.findFirst({ where: { workspaceId, id: taskId, archivedAt: null }, select: { projectId: true } });
  return row ?? undefined;
}

export interface TimeEntryValues {
  readonly memberId: string;
  readonly projectId: string | null;
  readonly taskId: string | null;
  readonly description: string | null;
  readonly startedAt: Date;
  readonly stoppedAt: Date | null;
  readonly durationSeconds: number | null;
}

/**
 * A new time entry. A running one (`stoppedAt` null) is an `INSERT … ON CONFLICT DO NOTHING` against the
 * one-running-timer index: null when the member already has a running timer (nothing is written).
 */
export async function insertTimeEntry(tx: Tx, workspaceId: string, v: TimeEntryValues, now: Date): Promise<TimeEntryRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO time_entries (workspace_id, member_id, task_id, project_id, description, started_at, stopped_at, duration_seconds, created_at, updated_at)
    VALUES (${workspaceId}::uuid, ${v.memberId}::uuid, ${v.taskId}::uuid, ${v.projectId}::uuid, ${v.description}, ${v.startedAt}, ${v.stoppedAt}, ${v.durationSeconds}, ${now}, ${now})
    ON CONFLICT (workspace_id, member_id) WHERE stopped_at IS NULL DO NOTHING
    RETURNING id::text AS id`;
  const id = rows[0]?.id;
  return id === undefined ? null : findTimeEntry(tx, workspaceId, id);
}

/** Compare-and-set of the entry's attributes: one `UPDATE … WHERE revision = $expected`. */
export async function updateTimeEntryIfRevision(tx: Tx, workspaceId: string, id: string, expectedRevision: number, v: TimeEntryValues): Promise<CasOutcome> {
  const { count } = await tx.timeEntry.updateMany({
    where: { workspaceId, id, revision: expectedRevision },
    data: { ...v, revision: { increment: 1 } },
  });
  if (count === 1) return 'updated';
  return (await tx.timeEntry.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Compare-and-set of the billing state. */
export async function setTimeEntryBillingIfRevision(
  tx: Tx,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  billing: { billable: boolean; rate: { amount: string; currency: string } | null },
): Promise<CasOutcome> {
  const { count } = await tx.timeEntry.updateMany({
    where: { workspaceId, id, revision: expectedRevision },
    data: {
      billable: billing.billable,
      billingRate: billing.rate === null ? null : new Prisma.Decimal(billing.rate.amount),
      billingCurrency: billing.rate?.currency ?? null,
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await tx.timeEntry.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Sets or clears `archived_at`; false when the entry is missing or already in that state. */
export function setTimeEntryArchived(tx: Tx, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.timeEntry, workspaceId, id, archivedAt);
}
