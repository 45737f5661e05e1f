import { z } from 'zod';
import { absencesBetween, busyIntervals, loadWorkspaceSettings } from '@workcell/db';
import { Timestamp, TimeZone } from '@workcell/registry';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { requireTypeGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import { validationError } from '../roles/permission-model.js';
import { resolveSubject } from './subject.js';
import { compareDays, dayOfDate, formatInZone, instantOf, type LocalDay, localTimeAt, nextDay, weekdayOf } from './zones.js';

/** The longest window one request may ask for. */
export const AVAILABILITY_MAX_DAYS = 62;
/** The default working week: Monday to Friday, 09:00 to 17:00 local time; a half day of absence ends or starts at 13:00. */
export const WORKING_DAYS: readonly number[] = [1, 2, 3, 4, 5];
export const WORK_START_HOUR = 9;
export const WORK_END_HOUR = 17;
export const MIDDAY_HOUR = 13;

export const getAvailabilityInput = z
  .object({ memberId: z.string().max(64).optional(), from: Timestamp, to: Timestamp, granularity: z.enum(['hour', 'day']).default('day'), timeZone: TimeZone.optional() })
  .strict();

type Reason = 'working-hours' | 'appointment' | 'absence' | 'planned-work';
interface Interval {
  readonly start: number;
  readonly end: number;
}
interface Window {
  readonly startsAt: string;
  readonly endsAt: string;
  readonly availableMinutes: number;
  readonly reasons: Reason[];
}
export interface AvailabilityView {
  readonly memberId: string;
  readonly from: string;
  readonly to: string;
  readonly timeZone: string;
  readonly windows: Window[];
}

const HOUR = 3_600_000;

function clip(intervals: readonly Interval[], within: Interval): Interval[] {
  return intervals.map((i) => ({ start: Math.max(i.start, within.start), end: Math.min(i.end, within.end) })).filter((i) => i.end > i.start);
}

/** The total length of a set of intervals, overlaps counted once. */
function covered(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let total = 0;
  let end = -Infinity;
  for (const i of sorted) {
    if (i.end <= end) continue;
    total += i.end - Math.max(i.start, end);
    end = i.end;
  }
  return total;
}

/** A service account reads availability only with type-wide read grants on what it is made of (the 403 names both). */
function requireAvailabilityGrants(auth: V1AuthContext): void {
  requireTypeGrant(auth, ['appointment', 'absence'], 'read', 'appointments and absences (availability is made of both)');
}

/**
 * `GET /v1/availability` (the acting member) and `GET /v1/members/{id}/availability` (delegated, subject.ts). Derived
 * at request time from what is stored now (nothing is cached or stored): working time (WORKING_DAYS, WORK_START_HOUR
 * to WORK_END_HOUR in the requested zone, default the workspace's) minus approved absences (their dates taken in
 * that zone) minus appointments the member owns or attends and its planned work. The window [from, to) is cut into
 * local days or hours; each carries its free minutes and the reasons for the minutes that are not free.
 */
export const getAvailability = defineProcedure('getAvailability', getAvailabilityInput, async (op, input): Promise<AvailabilityView> => {
  const { auth } = op;
  const { memberId, granularity } = input;
  // Whose availability first: another workspace's member is 404 whatever the window.
  const subject = await resolveSubject(op.database, auth, memberId);
  requireAvailabilityGrants(auth);
  const from = Date.parse(input.from);
  const to = Date.parse(input.to);
  if (to <= from) throw validationError('the window is empty', [{ pointer: '', parameter: 'to', message: 'must be after from' }]);
  if (to - from > AVAILABILITY_MAX_DAYS * 24 * HOUR) throw validationError('the window is too long', [{ pointer: '', parameter: 'to', message: `at most ${AVAILABILITY_MAX_DAYS} days after from` }]);
  const zone = input.timeZone ?? (await loadWorkspaceSettings(op.database, auth.workspaceId))?.timezone ?? 'UTC';

  // The local days the window touches, each with its bounds and working hours.
  const days: { day: LocalDay; bounds: Interval; work: Interval | null }[] = [];
  for (let day: LocalDay = localTimeAt(zone, from); ; day = nextDay(day)) {
    const bounds = { start: instantOf(zone, day), end: instantOf(zone, nextDay(day)) };
    if (bounds.start >= to) break;
    const work = WORKING_DAYS.includes(weekdayOf(day)) ? { start: instantOf(zone, day, WORK_START_HOUR), end: instantOf(zone, day, WORK_END_HOUR) } : null;
    days.push({ day, bounds, work });
  }
  const firstDay = days[0]!.day;
  const lastDay = days.at(-1)!.day;
  const dayDate = (d: LocalDay) => {
    const date = new Date(0);
    date.setUTCFullYear(d.year, d.month - 1, d.day);
    return date;
  };
  const [busy, absences] = await Promise.all([
    busyIntervals(op.database, auth.workspaceId, subject.memberId, new Date(from), new Date(to)),
    absencesBetween(op.database, auth.workspaceId, subject.memberId, dayDate(firstDay), dayDate(nextDay(lastDay))),
  ]);

  // Approved absences as instants on the local days of the window (half days at MIDDAY_HOUR).
  const absent: Interval[] = [];
  for (const { day, bounds } of days) {
    for (const a of absences) {
      const first = dayOfDate(a.startsOn);
      const last = dayOfDate(new Date(a.endsOn.getTime() - 24 * HOUR));
      if (compareDays(day, first) < 0 || compareDays(day, last) > 0) continue;
      const start = a.halfDayStart && compareDays(day, first) === 0 ? instantOf(zone, day, MIDDAY_HOUR) : bounds.start;
      const end = a.halfDayEnd && compareDays(day, last) === 0 ? instantOf(zone, day, MIDDAY_HOUR) : bounds.end;
      if (end > start) absent.push({ start, end });
    }
  }
  const byReason: Record<'appointment' | 'planned-work', Interval[]> = { appointment: [], 'planned-work': [] };
  for (const b of busy) byReason[b.reason].push({ start: b.startsAt.getTime(), end: b.endsAt.getTime() });

  const windows: Window[] = [];
  for (const { bounds, work } of days) {
    const buckets: Interval[] = granularity === 'day' ? [bounds] : [];
    if (granularity === 'hour') for (let start = bounds.start; start < bounds.end; start += HOUR) buckets.push({ start, end: Math.min(start + HOUR, bounds.end) });
    for (const raw of buckets) {
      const bucket = { start: Math.max(raw.start, from), end: Math.min(raw.end, to) };
      if (bucket.end <= bucket.start) continue;
      const working = work === null ? [] : clip([work], bucket);
      const reasons: Reason[] = [];
      if (covered(working) < bucket.end - bucket.start) reasons.push('working-hours');
      const taken: Interval[] = [];
      for (const [reason, intervals] of [
        ['absence', absent],
        ['appointment', byReason.appointment],
        ['planned-work', byReason['planned-work']],
      ] as const) {
        const inWork = working.flatMap((w) => clip(intervals, w));
        if (inWork.length > 0) reasons.push(reason);
        taken.push(...inWork);
      }
      const free = covered(working) - covered(taken);
      windows.push({ startsAt: formatInZone(zone, bucket.start), endsAt: formatInZone(zone, bucket.end), availableMinutes: Math.floor(free / 60_000), reasons });
    }
  }
  return { memberId: subject.memberId, from: formatInZone(zone, from), to: formatInZone(zone, to), timeZone: zone, windows };
});
