import pg from 'pg';

const TIMESTAMPTZ = 1184;
const pgParseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date;

const digit = (text: string, at: number): number => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number): number => digit(text, at) * 10 + digit(text, at + 1);
const isDigit = (text: string, at: number): boolean => text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57;

/**
 * A timestamptz as PostgreSQL writes it in UTC (`2026-11-29 12:00:00.123456+00`; the server's TimeZone is UTC here,
 * in compose and in the official image), as a Date, without the general parser's regular expressions: a page of 100
 * tasks carries 200–600 of them, and pg's parser (postgres-date) took 0.5–0.8 µs each, several per cent of the API's
 * time on a listTasks page (docs/performance.md). Anything else (another session TimeZone, BC, infinity, a year
 * outside 1000–9999) goes to pg's own parser (which answers ±Infinity for infinity), so the result is pg's in every
 * case: milliseconds are the first three fraction digits.
 */
export function parseTimestamptz(text: string): Date {
  const length = text.length;
  const fractionEnd = length - 3;
  if (length < 22 || text.charCodeAt(fractionEnd) !== 43 /* + */ || text.charCodeAt(length - 2) !== 48 || text.charCodeAt(length - 1) !== 48 || !wellFormed(text, fractionEnd)) {
    return pgParseTimestamptz(text);
  }
  let millis = 0;
  for (let at = 20, scale = 100; at < fractionEnd && at < 23; at++, scale /= 10) millis += digit(text, at) * scale;
  const seconds = twoDigits(text, 11) * 3600 + twoDigits(text, 14) * 60 + twoDigits(text, 17);
  return new Date(daysFromCivil(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5), twoDigits(text, 8)) * 86_400_000 + seconds * 1000 + millis);
}

const DIGITS_AT = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * `YYYY-MM-DD HH:MM:SS` from 0, then nothing or `.` and 1–6 digits up to `end`, with a year from 1000 on (PostgreSQL
 * writes earlier ones with leading zeros; they, like BC dates, are pg's parser's).
 */
function wellFormed(text: string, end: number): boolean {
  for (let i = 0; i < DIGITS_AT.length; i++) if (!isDigit(text, DIGITS_AT[i]!)) return false;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':' || text[0] === '0') return false;
  if (end === 19) return true;
  if (text[19] !== '.' || end - 20 < 1 || end - 20 > 6) return false;
  for (let at = 20; at < end; at++) if (!isDigit(text, at)) return false;
  return true;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); month 1–12. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The type parsers of our own statements on the pool (Prisma's adapter brings its own per statement). */
export const statementTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary' ? parseTimestamptz : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
