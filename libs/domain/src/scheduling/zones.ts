/**
 * Local calendar arithmetic in an IANA zone with the runtime's Intl database (no dependency): the zone's offset at an
 * instant, and the instant of a local wall-clock time (a time skipped by a DST change maps past the gap).
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(zone, format);
  }
  return format;
}

export interface LocalDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

interface LocalTime extends LocalDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function utcOf(t: LocalTime): number {
  const date = new Date(0);
  date.setUTCFullYear(t.year, t.month - 1, t.day);
  date.setUTCHours(t.hour, t.minute, t.second, 0);
  return date.getTime();
}

export function localTimeAt(zone: string, instant: number): LocalTime {
  const parts = Object.fromEntries(formatOf(zone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const year = parts['era'] === 'BC' ? 1 - Number(parts['year']) : Number(parts['year']);
  return { year, month: Number(parts['month']), day: Number(parts['day']), hour: Number(parts['hour']), minute: Number(parts['minute']), second: Number(parts['second']) };
}

/** The zone's offset from UTC at the instant, in milliseconds (whole seconds). */
export function offsetAt(zone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return utcOf(localTimeAt(zone, whole)) - whole;
}

/** The instant of a local wall-clock time in the zone. */
export function instantOf(zone: string, day: LocalDay, hour = 0, minute = 0): number {
  const wall = utcOf({ ...day, hour, minute, second: 0 });
  const first = wall - offsetAt(zone, wall);
  const second = wall - offsetAt(zone, first);
  return offsetAt(zone, second) === offsetAt(zone, first) ? Math.min(first, second) : Math.max(first, second);
}

/** The local day after `day`. */
export function nextDay(day: LocalDay): LocalDay {
  const date = new Date(0);
  date.setUTCFullYear(day.year, day.month - 1, day.day + 1);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: LocalDay): number {
  const date = new Date(0);
  date.setUTCFullYear(day.year, day.month - 1, day.day);
  return date.getUTCDay();
}

/** A stored date (UTC midnight) as a local day, and back. */
export const dayOfDate = (date: Date): LocalDay => ({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
export const compareDays = (a: LocalDay, b: LocalDay): number => a.year - b.year || a.month - b.month || a.day - b.day;

/** RFC 3339 with the zone's offset at that instant (`2026-12-01T09:00:00+01:00`). */
export function formatInZone(zone: string, instant: number): string {
  const offset = offsetAt(zone, instant);
  const local = new Date(instant + offset).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const minutes = Math.abs(offset) / 60000;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${local}${offset < 0 ? '-' : '+'}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}
