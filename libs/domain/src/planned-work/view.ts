import { createHash } from 'node:crypto';
import type { PlannedWorkRecord } from '@workcell/db';

/** A window as the registry's PlannedWork. */
export interface PlannedWorkView {
  readonly id: string;
  readonly taskId: string;
  readonly projectId: string | null;
  readonly memberId: string;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly plannedMinutes: number;
}

/** A task's whole schedule as the registry's TaskPlannedWork. */
export interface TaskPlannedWorkView {
  readonly taskId: string;
  readonly windows: readonly PlannedWorkView[];
  readonly version: string;
}

export function plannedWorkView(row: PlannedWorkRecord): PlannedWorkView {
  return {
    id: row.id,
    taskId: row.taskId,
    projectId: row.projectId,
    memberId: row.memberId,
    startsAt: row.windowStart.toISOString(),
    endsAt: row.windowEnd.toISOString(),
    plannedMinutes: row.minutes,
  };
}

/**
 * The compare-and-set validator of a task's schedule: a digest of its windows (ids and contents). A
 * replacement deletes every window and inserts new rows with fresh UUIDv7 ids, so every replacement that
 * leaves any window changes the version, and a replay after success fails the check. (Only an empty
 * schedule replaced by an empty one keeps its version: nothing changed, so nothing can be lost.)
 */
export function scheduleVersion(rows: readonly PlannedWorkRecord[]): string {
  const canonical = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => [r.id, r.memberId, r.windowStart.toISOString(), r.windowEnd.toISOString(), r.minutes]);
  return `pw1-${createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 32)}`;
}

export function taskPlannedWorkView(taskId: string, rows: readonly PlannedWorkRecord[]): TaskPlannedWorkView {
  return { taskId, windows: rows.map(plannedWorkView), version: scheduleVersion(rows) };
}
