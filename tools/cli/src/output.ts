/**
 * How results are shown: tables for a person at a terminal, JSON for everything else (a pipe, a file, `--json`),
 * like `gh`: the same command works in a script without a flag, and `--json` forces it at a terminal.
 */

type Row = Readonly<Record<string, unknown>>;

/** Columns people look for first, in this order, when an item has them. */
const PREFERRED = ['id', 'operationId', 'key', 'name', 'title', 'label', 'email', 'status', 'method', 'path', 'summary'];
const MAX_COLUMNS = 6;
const MAX_CELL = 48;

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : isScalar(value) ? String(value) : JSON.stringify(value);
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** The columns of a table of these rows: the preferred ones present, then other scalar fields, at most six. */
export function columnsOf(rows: readonly Row[]): string[] {
  const present = new Set<string>();
  for (const row of rows) for (const [key, value] of Object.entries(row)) if (isScalar(value)) present.add(key);
  const preferred = PREFERRED.filter((key) => present.has(key));
  const others = [...present].filter((key) => !preferred.includes(key) && !/At$/.test(key));
  return [...preferred, ...others].slice(0, MAX_COLUMNS);
}

/** A plain-text table (upper-case headers, columns padded), fitted to `width` by cutting the last column. */
export function table(rows: readonly Row[], columns: readonly string[] = columnsOf(rows), width = 120): string[] {
  if (rows.length === 0) return ['(no items)'];
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const headers = columns.map((column) => column.toUpperCase());
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((line) => line[i]!.length)));
  const render = (line: readonly string[]) =>
    line
      .map((text, i) => (i === line.length - 1 ? text : text.padEnd(widths[i]!)))
      .join('  ')
      .slice(0, width)
      .trimEnd();
  return [render(headers), ...cells.map(render)];
}

/** Words joined by `, `, in lines of at most `width` characters (a word longer than that has a line of its own). */
function wrapped(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const [i, word] of words.entries()) {
    const text = i < words.length - 1 ? `${word},` : word;
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + text.length <= width) lines[lines.length - 1] = `${last} ${text}`;
    else lines.push(text);
  }
  return lines.length > 0 ? lines : [''];
}

/**
 * One resource as `field  value` lines, fitted to `width`: a list of scalars (scopes, resource types) comma-separated
 * and wrapped under its field, other nested values as compact JSON.
 */
export function record(value: unknown, width = 120): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [JSON.stringify(value, null, 2) ?? 'null'];
  const entries = Object.entries(value as Row);
  if (entries.length === 0) return ['(empty)'];
  const keyWidth = Math.max(...entries.map(([key]) => key.length));
  return entries.flatMap(([key, field]) => {
    const lines =
      Array.isArray(field) && field.every(isScalar)
        ? wrapped(field.map(String), Math.max(20, width - keyWidth - 2))
        : [field === null || field === undefined ? '' : isScalar(field) ? String(field) : JSON.stringify(field)];
    return lines.map((line, i) => `${i === 0 ? key.padEnd(keyWidth) : ''.padEnd(keyWidth)}  ${line}`.trimEnd());
  });
}
