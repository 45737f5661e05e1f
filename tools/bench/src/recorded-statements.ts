/**
 * What the harness (run.bench.ts) records of the API's statements and hands the baseline server
 * (baseline-server.bench.ts) in JSON files, so the raw stack runs the very statements the API sent.
 */

/** A statement as the API sent it (DATABASE_STATEMENT_LOG). */
export interface RecordedStatement {
  readonly text: string;
  readonly values: unknown[];
}

/** The API's getTask statement and where the task's id is among its values (each request puts its own there). */
export interface RecordedRead extends RecordedStatement {
  readonly idIndex: number;
}

/** A recorded statement and the id of the row it inserted, which each request replaces with its own. */
export interface RecordedWrite extends RecordedStatement {
  readonly taskId: string;
}

/** What the harness recorded of the API's creates: an unkeyed one, and a keyed one with its claim. */
export interface CreateStatements {
  readonly unkeyed: RecordedWrite;
  readonly keyed: RecordedWrite & { readonly recordId: string };
  readonly claim: RecordedStatement & { readonly keyIndex: number };
}

/**
 * Where the ledger's unsequenced events start (a plain sequence in place of the workspace's counter): far above any
 * sequence the counter gives, so these events never meet the change feed's window, and the harness deletes them by it.
 */
export const UNSEQUENCED_START = 1_000_000_000_000;
