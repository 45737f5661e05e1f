import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** One recorded statement: its text and the values it was first sent with (strings cut to RECORDED_STRING_LENGTH). */
export interface RecordedStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * Records every distinct statement text a process sends, as JSON lines in a file of its own under one directory
 * (DATABASE_STATEMENT_LOG): the input of the statement check (tools/statement-check, docs/scale-out.md), which
 * proves every statement could be routed to one workspace's shard. It records at the one place every statement
 * passes (BudgetedClient), rather than from the server's log, which every checkout on a machine shares and whose
 * place depends on how the server was started. A text is written once per process (the first values with it), so
 * the cost on a hot path is one Set lookup.
 */
export class StatementLog {
  private static readonly byDirectory = new Map<string, StatementLog>();
  private readonly seen = new Set<string>();
  private readonly file: string;

  private constructor(directory: string) {
    mkdirSync(directory, { recursive: true });
    this.file = join(directory, `${process.pid}-${randomUUID()}.jsonl`);
  }

  /** One log per directory per process, so every pool of the process shares its record of what was seen. */
  static in(directory: string): StatementLog {
    let log = StatementLog.byDirectory.get(directory);
    if (!log) StatementLog.byDirectory.set(directory, (log = new StatementLog(directory)));
    return log;
  }

  record(text: string, values: readonly unknown[] | undefined): void {
    if (this.seen.has(text)) return;
    this.seen.add(text);
    const line: RecordedStatement = { text, values: (values ?? []).map(recordable) };
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

/**
 * Long enough that an event's payload and a stored result stay whole JSON, so a recorded write can be sent again (the
 * benchmark's cost ledger runs the API's createTask statements); a document's or a file's content is still cut.
 */
export const RECORDED_STRING_LENGTH = 16_384;

function recordable(value: unknown): unknown {
  if (typeof value === 'string') return value.slice(0, RECORDED_STRING_LENGTH);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.slice(0, 20).map(recordable);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  return typeof value;
}

/** The text and values of a pg `query(...)` call's arguments, or undefined for a submittable (a cursor, a stream). */
export function statementOf(args: readonly unknown[]): { text: string; values: readonly unknown[] | undefined } | undefined {
  const first = args[0];
  if (typeof first === 'string') return { text: first, values: Array.isArray(args[1]) ? (args[1] as unknown[]) : undefined };
  if (first !== null && typeof first === 'object' && typeof (first as { submit?: unknown }).submit !== 'function') {
    const { text, values } = first as { text?: unknown; values?: unknown };
    if (typeof text === 'string') return { text, values: Array.isArray(values) ? values : Array.isArray(args[1]) ? (args[1] as unknown[]) : undefined };
  }
  return undefined;
}
