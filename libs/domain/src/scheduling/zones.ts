/**
 * Local calendar arithmetic in an IANA zone with the runtime's Intl database (no dependency): the zone's offset at an
 * instant, and the instant of a local wall-clock time (a time skipped by a DST change maps past the gap).
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
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
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
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

/**
 * RFC 3339 with the zone's offset at that instant (`2026-12-01T09:00:00+01:00`, milliseconds when there are any): a
 * Timestamp of the registry that names exactly that instant. An RFC 3339 offset is whole minutes, so a local mean
 * time (Berlin was +00:53:28 until 1893) is written with its offset rounded and the wall clock moved with it; and a
 * wall clock past year 9999 (9999-12-31T23:59:59.999Z is 10000-01-01 at +14:00) has no four-digit year, so that
 * instant is written in UTC.
 */
export function formatInZone(zone: string, instant: number): string {
  const offset = Math.round(offsetAt(zone, instant) / 60_000) * 60_000;
  const milliseconds = instant % 1000 === 0 ? '' : `.${String(((instant % 1000) + 1000) % 1000).padStart(3, '0')}`;
  const local = new Date(instant + offset).toISOString();
  if (offset === 0 || !/^\d{4}-/.test(local)) return `${new Date(instant).toISOString().slice(0, 19)}${milliseconds}Z`;
  const minutes = Math.abs(offset) / 60_000;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${local.slice(0, 19)}${milliseconds}${offset < 0 ? '-' : '+'}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}
