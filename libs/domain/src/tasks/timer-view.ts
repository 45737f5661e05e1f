import type { TimeEntryRecord } from '@workcell/db';

/** A time entry as the registry's TimeEntry (no `billing`: that overlay is time-entries:billing's). */
export interface TimeEntryView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archivedAt: string | null;
  readonly taskId: string | null;
  readonly projectId: string | null;
  /** The member who tracked the time (a workspace member id). */
  readonly userId: string;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly durationSeconds: number;
  readonly note: string | null;
  readonly version: string;
}

/** While the timer runs, durationSeconds is the time elapsed so far. */
export function timeEntryView(row: TimeEntryRecord, now: Date): TimeEntryView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
    taskId: row.taskId,
    projectId: row.projectId,
    userId: row.memberId,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.stoppedAt?.toISOString() ?? null,
    durationSeconds: row.durationSeconds ?? Math.max(0, Math.floor((now.getTime() - row.startedAt.getTime()) / 1000)),
    note: row.description,
    version: String(row.revision),
  };
}
