import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceRule } from '@workcell/registry';
import type { z } from 'zod';
import type { FieldIssue } from '../kernel/errors.js';
import { validationError } from '../roles/permission-model.js';

/**
 * The schedule of a series: the registry's structured RecurrenceRule is the RFC 5545 RRULE subset FREQ, INTERVAL,
 * BYDAY (no ordinals), BYMONTHDAY, BYSETPOS, COUNT and UNTIL; it is expanded by rrule-temporal from DTSTART = local
 * midnight of `startsOn` in the series' IANA time zone, so an occurrence is local midnight of its day whatever the
 * offset that day (a daylight-saving change moves the UTC instant, never the local day). Per RFC 5545 a BYMONTHDAY a
 * month does not have is skipped (31 creates nothing in April); -1 is the month's last day, and BYDAY=MO..FR with
 * BYSETPOS=-1 its last weekday.
 */

export type Rule = z.output<typeof RecurrenceRule>;

/** What a schedule is made of: the rule, its first local day and its time zone. */
export interface Schedule {
  readonly rule: Rule;
  readonly startsOn: string;
  readonly timeZone: string;
}

/** Where an expansion may stop looking: no series takes more than this many instants from its start. */
const MAX_EXPANSION = 10_000;

/** The issues of a rule the registry's schema accepts but RFC 5545 (or this subset) does not; `at` prefixes pointers. */
export function ruleIssues(rule: Rule, startsOn: string, at = '/rule'): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ pointer: `${at}${path}`, message });
  if (rule.frequency === 'external') {
    for (const part of ['interval', 'byWeekday', 'byMonthDay', 'bySetPosition', 'count', 'until'] as const)
      if (rule[part] !== undefined) issue(`/${part}`, 'an external series has no schedule: only frequency is accepted');
    return issues;
  }
  rule.byMonthDay?.forEach((day, i) => day === 0 && issue(`/byMonthDay/${i}`, 'a month day is 1 to 31 or -31 to -1'));
  rule.bySetPosition?.forEach((position, i) => position === 0 && issue(`/bySetPosition/${i}`, 'a set position is 1 to 366 or -366 to -1'));
  rule.byWeekday?.forEach((day, i) => rule.byWeekday!.indexOf(day) !== i && issue(`/byWeekday/${i}`, 'each weekday at most once'));
  rule.byMonthDay?.forEach((day, i) => day !== 0 && rule.byMonthDay!.indexOf(day) !== i && issue(`/byMonthDay/${i}`, 'each month day at most once'));
  if (rule.frequency === 'weekly' && rule.byMonthDay !== undefined) issue('/byMonthDay', 'RFC 5545: BYMONTHDAY is not used with a weekly frequency');
  if (rule.bySetPosition !== undefined && rule.byWeekday === undefined && rule.byMonthDay === undefined) issue('/bySetPosition', 'bySetPosition needs byWeekday or byMonthDay');
  if (rule.count !== undefined && rule.until !== undefined) issue('/until', 'count and until exclude each other');
  if (rule.until !== undefined && rule.until < startsOn) issue('/until', 'until is before startsOn');
  return issues;
}

/** 400 `validation_failed` with a pointer per issue of the schedule. */
export function assertSchedule(schedule: Schedule, at = '/rule'): void {
  const issues = ruleIssues(schedule.rule, schedule.startsOn, at);
  if (issues.length > 0) throw validationError('the recurrence rule is not valid', issues);
}

const compact = (date: string): string => date.replace(/-/g, '');

/** The RRULE text of a scheduled rule (not `external`). UNTIL is the last second of the local `until` day, in UTC. */
export function rruleOf({ rule, timeZone }: Schedule): string {
  const parts = [`FREQ=${rule.frequency.toUpperCase()}`];
  if (rule.interval !== undefined) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byWeekday !== undefined) parts.push(`BYDAY=${rule.byWeekday.map((d) => d.toUpperCase()).join(',')}`);
  if (rule.byMonthDay !== undefined) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.bySetPosition !== undefined) parts.push(`BYSETPOS=${rule.bySetPosition.join(',')}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) {
    const end = Temporal.PlainDate.from(rule.until).add({ days: 1 }).toZonedDateTime({ timeZone }).subtract({ seconds: 1 }).toInstant();
    parts.push(`UNTIL=${compact(end.toString().slice(0, 19).replace(/:/g, ''))}Z`);
  }
  return parts.join(';');
}

/** The expander of a schedule; null for an external series (it has no instants of its own). */
function expander(schedule: Schedule): RRuleTemporal | null {
  if (schedule.rule.frequency === 'external') return null;
  const dtstart = Temporal.PlainDate.from(schedule.startsOn).toZonedDateTime({ timeZone: schedule.timeZone });
  return new RRuleTemporal({ rruleString: rruleOf(schedule), dtstart, maxIterations: MAX_EXPANSION });
}

const asDate = (value: Temporal.ZonedDateTime | null | undefined): Date | null => (value == null ? null : new Date(value.epochMilliseconds));

/** The first instant of the schedule after `after` (at or after it with `inclusive`), or its first one when `after` is null. */
export function nextInstant(schedule: Schedule, after: Date | null, inclusive = false): Date | null {
  const rule = expander(schedule);
  if (rule === null) return null;
  if (after === null) return asDate(rule.all((_, i) => i < 1)[0] as Temporal.ZonedDateTime | undefined);
  return asDate(rule.next(after, inclusive) as Temporal.ZonedDateTime | null);
}

/**
 * Where a series' cursor starts: its first instant from `now` on and after the last occurrence made. A series makes
 * occurrences from its creation (or resumption, or rescheduling) on; instants before that are made by a recheck only.
 */
export function cursorFrom(schedule: Schedule, lastMade: Date | null, now: Date): Date | null {
  return lastMade !== null && lastMade >= now ? nextInstant(schedule, lastMade) : nextInstant(schedule, now, true);
}

/** Up to `limit` instants from `from` (inclusive) to `to` (inclusive), in order. */
export function instantsBetween(schedule: Schedule, from: Date | null, to: Date, limit: number): Date[] {
  const out: Date[] = [];
  let next = nextInstant(schedule, from, true);
  while (next !== null && next <= to && out.length < limit) {
    out.push(next);
    next = nextInstant(schedule, next);
  }
  return out;
}

/** The next `count` instants at or after `from`. */
export function nextInstants(schedule: Schedule, from: Date, count: number): Date[] {
  const out: Date[] = [];
  let next = nextInstant(schedule, from, true);
  while (next !== null && out.length < count) {
    out.push(next);
    next = nextInstant(schedule, next);
  }
  return out;
}
