import type { Db } from './database.js';
import { findTimeEntry, type TimeEntryRow } from './time-entry-crud.js';

/**
 * Time entries of task timers (issue 6). A running timer is a time entry with `stopped_at IS NULL`; the
 * partial unique index time_entries_one_running_timer_key allows at most one per member, so a start is an
 * `INSERT … ON CONFLICT DO NOTHING` against it: of concurrent starts exactly one creates an entry. Timers are
 * time entries: they are returned as the same row as every other time-entry read.
 */

/** The member's running timer (at most one), if any. */
export async function findRunningTimer(client: Db, workspaceId: string, memberId: string): Promise<TimeEntryRow | null> {
  const running = await client.prisma.timeEntry.findFirst({ where: { workspaceId, memberId, stoppedAt: null }, select: { id: true } });
  return running ? findTimeEntry(client, workspaceId, running.id) : null;
}

/** Starts a timer: the new running entry, or null when the member already has one (nothing is written). */
export async function insertRunningTimer(
  tx: Db,
  input: { workspaceId: string; memberId: string; taskId: string; projectId: string | null; description: string | null },
  now: Date,
): Promise<TimeEntryRow | null> {
  const rows = await tx.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO time_entries (workspace_id, member_id, task_id, project_id, description, started_at, created_at, updated_at)
    VALUES (${input.workspaceId}::uuid, ${input.memberId}::uuid, ${input.taskId}::uuid, ${input.projectId}::uuid, ${input.description}, ${now}, ${now}, ${now})
    ON CONFLICT (workspace_id, member_id) WHERE stopped_at IS NULL DO NOTHING
    RETURNING id::text AS id`;
  const id = rows[0]?.id;
  if (id === undefined) return null;
  return findTimeEntry(tx, input.workspaceId, id);
}

/** Stops the member's running timer on that task: the stopped entry, or null when none runs there. */
export async function stopRunningTimer(tx: Db, workspaceId: string, memberId: string, taskId: string, now: Date): Promise<TimeEntryRow | null> {
  const rows = await tx.prisma.$queryRaw<{ id: string }[]>`
    UPDATE time_entries
    SET stopped_at = GREATEST(${now}::timestamptz, started_at),
        duration_seconds = GREATEST(0, FLOOR(EXTRACT(EPOCH FROM (${now}::timestamptz - started_at))))::int,
        updated_at = ${now},
        revision = revision + 1
    WHERE workspace_id = ${workspaceId}::uuid AND member_id = ${memberId}::uuid AND task_id = ${taskId}::uuid AND stopped_at IS NULL
    RETURNING id::text AS id`;
  const id = rows[0]?.id;
  if (id === undefined) return null;
  return findTimeEntry(tx, workspaceId, id);
}
