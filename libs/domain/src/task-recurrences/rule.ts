import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import { EARLIEST_INSTANT, isSupportedInstant, type RecurrenceRule } from '@workcell/registry';
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
  const widest = widestPeriod(rule);
  rule.bySetPosition?.forEach(
    (position, i) =>
      Math.abs(position) > widest && issue(`/bySetPosition/${i}`, `no ${rule.frequency} period of this rule has more than ${widest} candidate day(s): position ${position} can never select one`),
  );
  return issues;
}

/**
 * The most candidate days one period of a rule can have (what BYSETPOS picks from): a day is one; a week its
 * weekdays; a month its month days, or five of each weekday; a year twelve of each month day, or 53 of each weekday.
 * With both weekdays and month days, a month's or year's candidates are the days that are both, counted exactly over
 * every kind of month (28 to 31 days) or year (leap or not) and the weekday it starts on: a position beyond them is
 * found here, not by expanding the rule (issue 25: the expansion could not tell before 10,000 years).
 */
function widestPeriod(rule: Rule): number {
  const weekdays = rule.byWeekday?.length ?? 1;
  const monthDays = rule.byMonthDay?.length;
  if (rule.byWeekday !== undefined && rule.byMonthDay !== undefined && (rule.frequency === 'monthly' || rule.frequency === 'yearly')) {
    const periods = rule.frequency === 'monthly' ? [[28], [29], [30], [31]] : [YEAR, YEAR.map((days, month) => (month === 1 ? 29 : days))];
    const selected = new Set(rule.byWeekday.map((day) => WEEKDAYS.indexOf(day)));
    const days = new Set(rule.byMonthDay);
    return Math.max(...periods.flatMap((lengths) => WEEKDAYS.map((_d, first) => matchingDays(lengths, first, selected, days))));
  }
  switch (rule.frequency) {
    case 'weekly':
      return weekdays;
    case 'monthly':
      return monthDays ?? Math.min(5 * weekdays, 31);
    case 'yearly':
      return Math.min(monthDays !== undefined ? 12 * monthDays : 53 * weekdays, 366);
    default:
      return 1;
  }
}

const WEEKDAYS = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'] as const;
const YEAR = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of consecutive months of these lengths, the first starting on weekday `first`, in both sets (month days also from the end). */
function matchingDays(lengths: readonly number[], first: number, weekdays: ReadonlySet<number>, monthDays: ReadonlySet<number>): number {
  let count = 0;
  let weekday = first;
  for (const length of lengths) {
    for (let day = 1; day <= length; day++, weekday = (weekday + 1) % 7) if (weekdays.has(weekday) && (monthDays.has(day) || monthDays.has(day - length - 1))) count++;
  }
  return count;
}

/**
 * 400 `validation_failed` with a pointer per issue of the schedule, and at `at` itself when the rule can never make
 * an instant: its parts without count and until, expanded from its first day with no year bound, make none within
 * the expansion's bound (e.g. every twelfth month from February on the 30th). A rule that does make instants but
 * none in 0001-9999, or none before its until, is valid: its series has none (`ended`).
 */
export function assertSchedule(schedule: Schedule, at = '/rule'): void {
  const issues = ruleIssues(schedule.rule, schedule.startsOn, at);
  if (issues.length === 0 && schedule.rule.frequency !== 'external') {
    const { count: _count, until: _until, ...unbounded } = schedule.rule;
    let found = false;
    const periods = CALENDAR_CYCLE[unbounded.frequency as keyof typeof CALENDAR_CYCLE] ?? MAX_EXPANSION;
    expandSchedule(
      { ...schedule, rule: unbounded },
      null,
      true,
      () => {
        found = true;
        return false;
      },
      false,
      periods,
    );
    if (!found) issues.push({ pointer: at, message: `the rule makes no instant from startsOn on (none in ${periods} of its periods, a whole cycle of the calendar): its parts exclude each other` });
  }
  if (issues.length > 0) throw validationError('the recurrence rule is not valid', issues);
}

const compact = (date: string): string => date.replace(/-/g, '');

/** The latest second an RRULE UNTIL may name: the last of 9999-12-31 (UTC), the bound of every instant. */
const LATEST_UNTIL = Temporal.Instant.from('9999-12-31T23:59:59Z');

/**
 * The RRULE text of a scheduled rule (not `external`). UNTIL is the last second of the local `until` day, in UTC,
 * at most 9999-12-31T23:59:59Z (west of UTC the local day ends in year 10000, which RRULE text cannot carry).
 */
export function rruleOf({ rule, timeZone }: Schedule): string {
  const parts = [`FREQ=${rule.frequency.toUpperCase()}`];
  if (rule.interval !== undefined) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byWeekday !== undefined) parts.push(`BYDAY=${rule.byWeekday.map((d) => d.toUpperCase()).join(',')}`);
  if (rule.byMonthDay !== undefined) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.bySetPosition !== undefined) parts.push(`BYSETPOS=${rule.bySetPosition.join(',')}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) {
    const dayEnd = Temporal.PlainDate.from(rule.until).add({ days: 1 }).toZonedDateTime({ timeZone }).subtract({ seconds: 1 }).toInstant();
    const end = Temporal.Instant.compare(dayEnd, LATEST_UNTIL) > 0 ? LATEST_UNTIL : dayEnd;
    parts.push(`UNTIL=${compact(end.toString().slice(0, 19).replace(/:/g, ''))}Z`);
  }
  return parts.join(';');
}

/**
 * How far one expansion looks: at most this many of the rule's periods past where it starts (from its first day
 * for a rule with count, whose instants are numbered from there), and at most this many instants. The expander's
 * own cap (maxIterations, "Maximum iterations exceeded") is the same number of periods.
 */
export const MAX_EXPANSION = 10_000;

/**
 * How many periods of a rule hold every kind of period it can meet: the Gregorian calendar repeats every 400 years
 * (4,800 months), so the periods k·interval apart from the first cover each kind of year (month) within 400 (4,800)
 * steps, the first period's kind again included (hence the one more). A rule with no instant in that many periods has
 * none ever. assertSchedule's probe stops there instead of at MAX_EXPANSION: 10,000 yearly periods of a rule whose
 * parts exclude each other cost about 16 s of CPU with the event loop blocked (issue 25, the generated-input check);
 * 401 cost under a second. Daily and weekly periods are cheap, and their parts meet within a few periods.
 */
const CALENDAR_CYCLE = { monthly: 4_801, yearly: 401 } as const;

/** The longest a period of each frequency lasts (a month of 31 days, a year of 366, each day 25 hours at most). */
const HOUR_MS = 3_600_000;
const PERIOD_MS = { daily: 25 * HOUR_MS, weekly: 7 * 25 * HOUR_MS, monthly: 31 * 25 * HOUR_MS, yearly: 366 * 25 * HOUR_MS } as const;

const EARLIEST = new Date(EARLIEST_INSTANT);
const toDate = (value: Temporal.ZonedDateTime): Date => new Date(value.epochMilliseconds);

/**
 * The one expansion of a schedule every path uses (create, update and preview through assertSchedule and the
 * functions below, recheck and materialisation): calls `visit` with the schedule's instants from `from` on (at or
 * after it with `inclusive`; null: from its first day), in order, until `visit` answers false or the instants end.
 * Bounded in work: it stops after MAX_EXPANSION instants or `periods` periods (MAX_EXPANSION, see there), and an error of the
 * expander, its "Maximum iterations exceeded" among them, ends the instants as the rule's end would: the answer is
 * never an error, it is "no (further) instant". With `supportedYears` (the default) the instants are those in the
 * API's 0001-9999 bound (registry `isSupportedInstant`): a series ends at 9999-12-31, and one whose local midnight
 * of 0001-01-01 is in year 0 (east of UTC) begins with its next instant.
 */
export function expandSchedule(schedule: Schedule, from: Date | null, inclusive: boolean, visit: (instant: Date) => boolean, supportedYears = true, periods = MAX_EXPANSION): void {
  const { rule } = schedule;
  if (rule.frequency === 'external') return;
  const dtstart = Temporal.PlainDate.from(schedule.startsOn).toZonedDateTime({ timeZone: schedule.timeZone });
  let start = from ?? toDate(dtstart);
  if (supportedYears && start < EARLIEST) [start, inclusive] = [EARLIEST, true];
  // The periods are counted from where the walk starts, or from the first day when that is later (none come before it).
  const horizon = Math.max(start.getTime(), dtstart.epochMilliseconds) + periods * (rule.interval ?? 1) * PERIOD_MS[rule.frequency];
  let visited = 0;
  let visitFailed: { error: unknown } | null = null;
  // Whether the walk goes on after `instant`, which is past `start` (or at it, with `inclusive`).
  const step = (instant: Date): boolean => {
    if (++visited > MAX_EXPANSION || instant.getTime() > horizon) return false;
    if (supportedYears && !isSupportedInstant(instant.getTime())) return false;
    try {
      return visit(instant);
    } catch (error) {
      visitFailed = { error };
      return false;
    }
  };
  try {
    const expander = new RRuleTemporal({ rruleString: rruleOf(schedule), dtstart, maxIterations: periods });
    if (rule.count !== undefined) {
      // Counted instants depend on all before them: one pass from the first day (the expander cannot start later).
      expander.all((zoned) => {
        const instant = toDate(zoned as Temporal.ZonedDateTime);
        if (instant < start || (!inclusive && instant.getTime() === start.getTime())) return ++visited < MAX_EXPANSION;
        return step(instant);
      });
      return;
    }
    for (let after = start, first = true; ; first = false) {
      const next = expander.next(after, first && inclusive) as Temporal.ZonedDateTime | null;
      if (next === null) return;
      after = toDate(next);
      if (!step(after)) return;
    }
  } catch {
    // The expander's errors (its iteration cap, a date out of its range) end the instants, as documented.
  }
  // The caller's own errors are not the expander's: they are not swallowed.
  if (visitFailed !== null) throw (visitFailed as { error: unknown }).error;
}

/** The first instant of the schedule after `after` (at or after it with `inclusive`), or its first one when `after` is null. */
export function nextInstant(schedule: Schedule, after: Date | null, inclusive = false): Date | null {
  const found: Date[] = [];
  expandSchedule(schedule, after, inclusive || after === null, (instant) => found.push(instant) < 1);
  return found[0] ?? null;
}

/**
 * Where a series' cursor starts: its first instant from `now` on and after the last occurrence made. A series makes
 * occurrences from its creation (or resumption, or rescheduling) on; instants before that are made by a recheck only.
 */
export function cursorFrom(schedule: Schedule, lastMade: Date | null, now: Date): Date | null {
  return lastMade !== null && lastMade >= now ? nextInstant(schedule, lastMade) : nextInstant(schedule, now, true);
}

/** Up to `limit` instants from `from` (inclusive; null: the first day) to `to` (inclusive), in order. */
export function instantsBetween(schedule: Schedule, from: Date | null, to: Date, limit: number): Date[] {
  const out: Date[] = [];
  expandSchedule(schedule, from, true, (instant) => instant <= to && out.push(instant) < limit);
  return out;
}

/** The next `count` instants at or after `from`. */
export function nextInstants(schedule: Schedule, from: Date, count: number): Date[] {
  const out: Date[] = [];
  expandSchedule(schedule, from, true, (instant) => out.push(instant) < count);
  return out;
}
