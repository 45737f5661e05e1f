/**
 * A small, strict iCalendar (RFC 5545) writer: CRLF line endings, content lines folded at 75 octets
 * without splitting a UTF-8 character, TEXT values escaped, UTC date-times.
 */

export type ICalEvent =
  | {
      readonly uid: string;
      readonly stamp: Date;
      readonly summary: string;
      readonly description?: string | null;
      readonly kind: 'timed';
      readonly start: Date;
      readonly end: Date;
    }
  | {
      readonly uid: string;
      readonly stamp: Date;
      readonly summary: string;
      readonly description?: string | null;
      readonly kind: 'all-day';
      /** First day, and the day after the last (DTEND is exclusive for DATE values). */
      readonly startDay: Date;
      readonly endDay: Date;
    };

/** RFC 5545 3.3.11: backslash, semicolon, comma and newlines are escaped in TEXT. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** RFC 5545 3.1: lines longer than 75 octets continue on lines that start with one space. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    const max = parts.length === 0 ? 75 : 74; // continuation lines spend one octet on the leading space
    if (octets + size > max) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(date: Date): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
}

export function formatDate(date: Date): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
}

export function renderCalendar(name: string, events: readonly ICalEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Workcell//Calendar Feed 0.4.5//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', `X-WR-CALNAME:${escapeText(name)}`];
  for (const event of events) {
    lines.push('BEGIN:VEVENT', `UID:${event.uid}`, `DTSTAMP:${formatDateTime(event.stamp)}`);
    if (event.kind === 'timed') {
      lines.push(`DTSTART:${formatDateTime(event.start)}`, `DTEND:${formatDateTime(event.end)}`);
    } else {
      lines.push(`DTSTART;VALUE=DATE:${formatDate(event.startDay)}`, `DTEND;VALUE=DATE:${formatDate(event.endDay)}`);
    }
    lines.push(`SUMMARY:${escapeText(event.summary)}`);
    if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
    lines.push('TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
