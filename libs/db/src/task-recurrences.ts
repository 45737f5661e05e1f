import { Prisma } from './generated/prisma/client.js';
import type { RecurrenceState } from './generated/prisma/enums.js';
import { pageIds } from './keyset.js';
import { revisionedColumns, setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { resourceReadableSql, type Viewer } from './visibility.js';

/**
 * Task recurrences (issue 14) and their occurrences. Every query is scoped by the workspace id. A series' rule is
 * stored as the registry's structured RecurrenceRule (jsonb); `nextOccurrenceAt` is its cursor. Occurrences are
 * inserted with ON CONFLICT DO NOTHING against their unique keys (one per scheduled instant, one per external event
 * id), so a materialisation that runs twice, or in two workers at once, inserts each occurrence once.
 */

export type RecurrenceStateValue = RecurrenceState;
export type OccurrenceSource = 'schedule' | 'external-event' | 'recheck';
export type OccurrenceStatus = 'scheduled' | 'created' | 'skipped' | 'failed';

const select = {
  id: true,
  workspaceId: true,
  taskId: true,
  rule: true,
  startsOn: true,
  timezone: true,
  state: true,
  nextOccurrenceAt: true,
  lastOccurrenceAt: true,
  lastCheckedAt: true,
  ...revisionedColumns,
} as const satisfies Prisma.TaskRecurrenceSelect;

/** An interface, so that other projects' declarations name it: the stored rule (jsonb) read as unknown, its state in this layer's name. */
export interface TaskRecurrenceRecord extends Readonly<Omit<Prisma.TaskRecurrenceGetPayload<{ select: typeof select }>, 'rule' | 'state'>> {
  readonly rule: unknown;
  readonly state: RecurrenceStateValue;
}

/** A series row `r` as a TaskRecurrenceRecord (the first day as UTC midnight, as Prisma decodes a date). */
const RECORD_COLUMNS = Prisma.sql`
  r.id::text AS id, r.workspace_id::text AS "workspaceId", r.task_id::text AS "taskId", r.rule, (r.starts_on::timestamp AT TIME ZONE 'UTC') AS "startsOn", r.timezone,
  r.state::text AS state, r.next_occurrence_at AS "nextOccurrenceAt", r.last_occurrence_at AS "lastOccurrenceAt", r.last_checked_at AS "lastCheckedAt",
  r.revision, r.archived_at AS "archivedAt", r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;

/**
 * Whether the viewer may see series row `r` (visibility.ts): it follows its template task, in task grants and in
 * the sharing of the task's project.
 */
const recurrenceReadable = (viewer: Viewer) =>
  resourceReadableSql('task_recurrence', Prisma.sql`r.workspace_id`, Prisma.sql`r.id`, viewer, {
    project: Prisma.sql`(SELECT t.project_id FROM tasks t WHERE t.workspace_id = r.workspace_id AND t.id = r.task_id)`,
  });

/** One series (archived ones too); with a viewer, only one it may see. Without one: the platform's own read (the worker's, or after a permitted write). */
export async function findTaskRecurrence(client: Db, workspaceId: string, id: string, viewer: Viewer | null = null): Promise<TaskRecurrenceRecord | null> {
  const visible = viewer === null ? Prisma.sql`true` : recurrenceReadable(viewer);
  const rows = await client.rows<TaskRecurrenceRecord>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM task_recurrences r WHERE r.workspace_id = ${workspaceId}::uuid AND r.id = ${id}::uuid AND ${visible}`);
  return rows[0] ?? null;
}

/**
 * The series row locked for the rest of the transaction. `update` waits for the lock (the worker, which found the
 * row with SKIP LOCKED already); `update-or-busy` does not wait: a row another transaction holds is answered `busy`, so
 * concurrent requests never queue on it holding pooled connections (`busy`, with the row as last committed); `share` lets holders of `share` in together
 * while it keeps the row from changing (event submissions). Null when the series does not exist or, with a viewer,
 * is not one it may see (then nothing is locked).
 */
export async function lockTaskRecurrence(
  tx: Db,
  workspaceId: string,
  id: string,
  mode: 'update' | 'update-or-busy' | 'share' = 'update',
  viewer: Viewer | null = null,
): Promise<{ row: TaskRecurrenceRecord; busy: boolean } | null> {
  const lock = mode === 'share' ? Prisma.sql`FOR SHARE OF r` : mode === 'update' ? Prisma.sql`FOR UPDATE OF r` : Prisma.sql`FOR UPDATE OF r SKIP LOCKED`;
  const visible = viewer === null ? Prisma.sql`true` : recurrenceReadable(viewer);
  const locked = await tx.rows<{ id: string }>(Prisma.sql`SELECT r.id::text AS id FROM task_recurrences r WHERE r.workspace_id = ${workspaceId}::uuid AND r.id = ${id}::uuid AND ${visible} ${lock}`);
  const row = await findTaskRecurrence(tx, workspaceId, id, viewer);
  return row === null ? null : { row, busy: locked.length === 0 };
}

export interface TaskRecurrenceFilter {
  readonly taskId?: string | undefined;
  readonly state?: RecurrenceStateValue | undefined;
}

/** One keyset page of the workspace's unarchived series the viewer may see, in id order. */
export async function listTaskRecurrencesPage(
  client: Db,
  workspaceId: string,
  filter: TaskRecurrenceFilter,
  afterId: string | undefined,
  take: number,
  viewer: Viewer,
): Promise<TaskRecurrenceRecord[]> {
  const where = [Prisma.sql`r.workspace_id = ${workspaceId}::uuid`, Prisma.sql`r.archived_at IS NULL`];
  if (filter.taskId !== undefined) where.push(Prisma.sql`r.task_id = ${filter.taskId}::uuid`);
  if (filter.state !== undefined) where.push(Prisma.sql`r.state = ${filter.state}::recurrence_state`);
  if (afterId !== undefined) where.push(Prisma.sql`r.id > ${afterId}::uuid`);
  where.push(recurrenceReadable(viewer));
  return client.rows<TaskRecurrenceRecord>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM task_recurrences r WHERE ${Prisma.join(where, ' AND ')} ORDER BY r.id LIMIT ${take}`);
}

/** Attributes as written; `undefined` leaves a stored value alone (updates). */
export interface TaskRecurrenceChanges {
  readonly rule?: object;
  readonly startsOn?: Date;
  readonly timezone?: string;
  readonly state?: RecurrenceStateValue;
  readonly nextOccurrenceAt?: Date | null;
}

export async function insertTaskRecurrence(tx: Db, workspaceId: string, taskId: string, values: Required<TaskRecurrenceChanges>): Promise<TaskRecurrenceRecord> {
  return tx.prisma.taskRecurrence.create({ data: { ...values, rule: values.rule as Prisma.InputJsonObject, workspaceId, taskId }, select });
}

/** Compare-and-set of a series' attributes: one `UPDATE … WHERE revision = $expected`. */
export async function updateTaskRecurrenceIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, change: TaskRecurrenceChanges): Promise<CasOutcome> {
  return updateIfRevision(tx.prisma.taskRecurrence, workspaceId, id, expectedRevision, change);
}

export async function setTaskRecurrenceArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.taskRecurrence, workspaceId, id, archivedAt);
}

/**
 * Moves a series' cursor after a materialisation (no new revision: the worker's bookkeeping is not an edit of the
 * series, so it never makes a client's compare-and-set stale). `lastOccurrenceAt` only moves forward.
 */
export async function advanceTaskRecurrence(
  tx: Db,
  workspaceId: string,
  id: string,
  cursor: { nextOccurrenceAt: Date | null; lastOccurrenceAt: Date | null; state: RecurrenceStateValue; checkedAt: Date },
): Promise<void> {
  await tx.prisma.$executeRaw`
    UPDATE task_recurrences SET next_occurrence_at = ${cursor.nextOccurrenceAt}::timestamptz, state = ${cursor.state}::recurrence_state, last_checked_at = ${cursor.checkedAt}::timestamptz,
      last_occurrence_at = GREATEST(last_occurrence_at, ${cursor.lastOccurrenceAt}::timestamptz)
    WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid`;
}

/**
 * Up to `take` series due by `dueBy` (active, unarchived, cursor at or before it), oldest cursor first. SKIP LOCKED:
 * a series another worker is materialising is left to it; `exceptIds` are left out (this run's failures).
 */
export async function dueTaskRecurrences(tx: Db, dueBy: Date, take: number, exceptIds: readonly string[] = []): Promise<{ workspaceId: string; id: string }[]> {
  return tx.rows(Prisma.sql`SELECT workspace_id::text AS "workspaceId", id::text AS id FROM task_recurrences
      WHERE state = 'active' AND archived_at IS NULL AND next_occurrence_at <= ${dueBy}::timestamptz AND NOT (id = ANY(${[...exceptIds]}::uuid[]))
      ORDER BY next_occurrence_at LIMIT ${take} FOR UPDATE SKIP LOCKED`);
}

export interface TaskOccurrenceRecord {
  readonly id: string;
  readonly recurrenceId: string;
  readonly taskId: string | null;
  readonly scheduledFor: Date;
  readonly source: OccurrenceSource;
  readonly status: OccurrenceStatus;
  readonly externalEventId: string | null;
  readonly createdAt: Date;
}

export interface NewTaskOccurrence {
  readonly recurrenceId: string;
  readonly scheduledFor: Date;
  readonly source: OccurrenceSource;
  readonly status: OccurrenceStatus;
  readonly externalEventId: string | null;
}

/**
 * Inserts an occurrence unless its key (the scheduled instant, or the external event id) already has one: the
 * exactly-once step. Returns the new row, or null when it existed; the caller then makes its task and links it
 * (setTaskOccurrenceTask) in the same transaction.
 */
export async function insertTaskOccurrenceOnce(tx: Db, workspaceId: string, occurrence: NewTaskOccurrence): Promise<TaskOccurrenceRecord | null> {
  const conflict =
    occurrence.externalEventId === null
      ? Prisma.sql`ON CONFLICT (workspace_id, recurrence_id, scheduled_for) WHERE external_event_id IS NULL DO NOTHING`
      : Prisma.sql`ON CONFLICT (workspace_id, recurrence_id, external_event_id) WHERE external_event_id IS NOT NULL DO NOTHING`;
  const rows = await tx.rows<TaskOccurrenceRecord>(Prisma.sql`INSERT INTO task_occurrences (workspace_id, recurrence_id, scheduled_for, source, status, external_event_id)
      VALUES (${workspaceId}::uuid, ${occurrence.recurrenceId}::uuid, ${occurrence.scheduledFor}::timestamptz, ${occurrence.source}, ${occurrence.status}, ${occurrence.externalEventId})
      ${conflict}
      RETURNING id::text AS id, recurrence_id::text AS "recurrenceId", task_id::text AS "taskId", scheduled_for AS "scheduledFor", source, status, external_event_id AS "externalEventId", created_at AS "createdAt"`);
  return rows[0] ?? null;
}

/** Links an occurrence inserted by insertTaskOccurrenceOnce to the task made for it (same transaction). */
export async function setTaskOccurrenceTask(tx: Db, workspaceId: string, id: string, taskId: string): Promise<void> {
  await tx.prisma.taskOccurrence.updateMany({ where: { workspaceId, id }, data: { taskId, status: 'created' } });
}

/** One keyset page of a series' occurrences in id order (creation order: ids are UUIDv7). */
export async function listTaskOccurrencesPage(client: Db, workspaceId: string, recurrenceId: string, afterId: string | undefined, take: number): Promise<TaskOccurrenceRecord[]> {
  const rows = await client.prisma.taskOccurrence.findMany({
    where: { workspaceId, recurrenceId, ...pageIds(afterId) },
    orderBy: { id: 'asc' },
    take,
    select: { id: true, recurrenceId: true, taskId: true, scheduledFor: true, source: true, status: true, externalEventId: true, createdAt: true },
  });
  return rows as TaskOccurrenceRecord[];
}

/** The id of the occurrence an external event id made (null when none). */
export async function findTaskOccurrenceIdByEvent(client: Db, workspaceId: string, recurrenceId: string, externalEventId: string): Promise<string | null> {
  const row = await client.prisma.taskOccurrence.findFirst({ where: { workspaceId, recurrenceId, externalEventId }, select: { id: true } });
  return row?.id ?? null;
}
