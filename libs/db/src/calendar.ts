import type { Db } from './database.js';

export interface FeedTokenRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly memberId: string;
  readonly verifier: Uint8Array;
  readonly revokedAt: Date | null;
  readonly memberActive: boolean;
  readonly workspaceLocked: boolean;
}

export async function loadFeedToken(database: Db, workspaceId: string, id: string): Promise<FeedTokenRecord | null> {
  const row = await database.prisma.calendarFeedToken.findUnique({
    where: { workspaceId_id: { workspaceId, id } },
    select: { id: true, workspaceId: true, memberId: true, verifier: true, revokedAt: true, member: { select: { status: true } }, workspace: { select: { lockedAt: true } } },
  });
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    memberId: row.memberId,
    verifier: row.verifier,
    revokedAt: row.revokedAt,
    memberActive: row.member.status === 'active',
    workspaceLocked: row.workspace.lockedAt !== null,
  };
}

export type CalendarEntry =
  | { readonly source: 'planned_work'; readonly id: string; readonly title: string; readonly note: string | null; readonly start: Date; readonly end: Date; readonly updatedAt: Date }
  | { readonly source: 'task'; readonly id: string; readonly title: string; readonly note: string | null; readonly startDay: Date; readonly dueDay: Date; readonly updatedAt: Date };

interface Row {
  source: 'planned_work' | 'task';
  id: string;
  title: string;
  note: string | null;
  starts_at: Date;
  ends_at: Date;
  updated_at: Date;
}

/**
 * A member's scheduled work (planned work windows) and dated tasks assigned to them, not archived, in one
 * stable order (start, then kind and id) so page/limit page through a consistent sequence.
 */
export async function listCalendarEntries(database: Db, workspaceId: string, memberId: string, offset: number, limit: number): Promise<CalendarEntry[]> {
  const rows = await database.prisma.$queryRaw<Row[]>`
    SELECT * FROM (
      SELECT 'planned_work' AS source, pw.id::text AS id, t.title, pw.note, pw.window_start AS starts_at, pw.window_end AS ends_at, pw.updated_at
        FROM planned_work pw
        JOIN tasks t ON t.workspace_id = pw.workspace_id AND t.id = pw.task_id
       WHERE pw.workspace_id = ${workspaceId}::uuid AND pw.member_id = ${memberId}::uuid AND t.archived_at IS NULL
      UNION ALL
      SELECT 'task' AS source, t.id::text AS id, t.title, t.description AS note,
             COALESCE(t.start_date, t.due_date)::timestamptz AS starts_at, COALESCE(t.due_date, t.start_date)::timestamptz AS ends_at, t.updated_at
        FROM tasks t
       WHERE t.workspace_id = ${workspaceId}::uuid AND t.assignee_member_id = ${memberId}::uuid AND t.archived_at IS NULL
         AND (t.start_date IS NOT NULL OR t.due_date IS NOT NULL)
    ) entries
    ORDER BY starts_at, source, id
    OFFSET ${offset} LIMIT ${limit}`;
  return rows.map((r) =>
    r.source === 'planned_work'
      ? { source: 'planned_work', id: r.id, title: r.title, note: r.note, start: r.starts_at, end: r.ends_at, updatedAt: r.updated_at }
      : { source: 'task', id: r.id, title: r.title, note: r.note, startDay: r.starts_at, dueDay: r.ends_at, updatedAt: r.updated_at },
  );
}

export async function touchFeedToken(database: Db, workspaceId: string, id: string, now: Date): Promise<void> {
  await database.prisma.calendarFeedToken.updateMany({
    where: { workspaceId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}
