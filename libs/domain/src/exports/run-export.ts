import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { type ExportOutcome, type ExportRecord, findExportForJob, finishExport, inTransaction, setExportProgress, startExport } from '@workcell/db';
import { EXPORT_MAX_ROWS, EXPORT_RESULT_TTL_SECONDS } from '@workcell/registry';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { invoke, operationOf, platformEvents, type ProcedureContext } from '../kernel/procedure.js';
import { definePlatformProcedure } from '../kernel/procedure.js';
import { storageOf } from '../files/intents.js';
import { columnsOf, EXPORT_SOURCES } from './sources.js';
import { exportEventView, exportStorageKey } from './view.js';

export const runExportInput = z.object({ workspaceId: z.uuid(), exportId: z.uuid() }).strict();

type Domain = keyof typeof EXPORT_SOURCES;
type Row = { readonly type: Domain; readonly data: Record<string, unknown> };

const PAGE = 200;

class TooManyRows extends Error {}

/** Every row of the export's types as its creator's list shows them, within the bound; progress after each page. */
async function readRows(ctx: ProcedureContext, row: ExportRecord): Promise<Row[]> {
  const auth = row.authSnapshot as V1AuthContext;
  const since = row.updatedSince?.getTime();
  const rows: Row[] = [];
  for (const type of row.resourceTypes as Domain[]) {
    let cursor: string | undefined;
    do {
      const page = await invoke(EXPORT_SOURCES[type].list, operationOf(ctx, auth, null), { limit: PAGE, ...(cursor === undefined ? {} : { cursor }) } as never);
      for (const item of page.items as Record<string, unknown>[]) {
        const updatedAt = typeof item['updatedAt'] === 'string' ? Date.parse(item['updatedAt']) : undefined;
        if (since !== undefined && updatedAt !== undefined && updatedAt < since) continue;
        rows.push({ type, data: item });
      }
      if (rows.length > EXPORT_MAX_ROWS) throw new TooManyRows();
      await setExportProgress(ctx.database, row.workspaceId, row.id, rows.length, ctx.now());
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  return rows;
}

const cell = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** CSV (RFC 4180 through csv-stringify: a `type` column, then the union of the types' fields) or JSON Lines. */
export function renderExport(format: 'csv' | 'jsonl', types: readonly Domain[], rows: readonly Row[]): Buffer {
  if (format === 'jsonl') return Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8');
  const columns = ['type', ...new Set(types.flatMap((t) => columnsOf(t)))];
  const records = rows.map((r) => columns.map((c) => (c === 'type' ? r.type : cell(r.data[c]))));
  return Buffer.from(stringify(records, { header: true, columns, record_delimiter: 'windows' }), 'utf8');
}

const ENDED = { succeeded: 'succeeded', failed: 'failed' } as const;

/** Ends the export and appends `export.succeeded` or `export.failed` in one transaction (nothing if it had ended). */
async function end(ctx: ProcedureContext, workspaceId: string, exportId: string, outcome: ExportOutcome): Promise<ExportRecord | null> {
  return inTransaction(ctx.database, async (tx) => {
    const row = await finishExport(tx, workspaceId, exportId, outcome, ctx.now());
    // The worker runs the export: its events name no actor (the request that asked for it named its creator).
    if (row) await platformEvents(workspaceId).emit(tx, { aggregateType: 'export', aggregateId: row.id, eventType: `export.${ENDED[outcome.status]}`, payload: exportEventView(row) });
    return row;
  });
}

/**
 * The worker's job for one export: queued -> running, read, render, store, succeeded (with `expiresAt`), or failed
 * with its reason. A second run of the same job finds it no longer queued and does nothing. A transient failure
 * (database, storage) is rethrown for the queue to retry after marking nothing; the last attempt marks it failed.
 */
export const runExport = definePlatformProcedure(
  'runExport',
  runExportInput.extend({ attempt: z.number().int(), attempts: z.number().int() }),
  async (ctx, { workspaceId, exportId, attempt, attempts }) => {
    const row = await findExportForJob(ctx.database, workspaceId, exportId);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return { outcome: 'skipped' as const };
    // A retry finds its own earlier run's `running` row; a first run claims the queued one.
    if (row.status === 'queued' && !(await startExport(ctx.database, workspaceId, exportId, ctx.now()))) return { outcome: 'skipped' as const };
    let outcome: ExportOutcome;
    try {
      const rows = await readRows(ctx, row);
      const bytes = renderExport(row.format, row.resourceTypes as Domain[], rows);
      const storageKey = exportStorageKey(row);
      await storageOf(ctx).write(storageKey, Readable.from([bytes]), { contentType: 'application/octet-stream', sizeBytes: bytes.length });
      const now = ctx.now();
      outcome = {
        status: 'succeeded',
        rowsDone: rows.length,
        rowsTotal: rows.length,
        failureReason: null,
        storageKey,
        sizeBytes: bytes.length,
        expiresAt: new Date(now.getTime() + EXPORT_RESULT_TTL_SECONDS * 1000),
      };
    } catch (error) {
      if (!(error instanceof TooManyRows) && attempt < attempts) throw error;
      outcome = {
        status: 'failed',
        rowsDone: 0,
        rowsTotal: null,
        failureReason: error instanceof TooManyRows ? 'too_many_rows' : 'internal_error',
        storageKey: null,
        sizeBytes: null,
        expiresAt: null,
      };
    }
    const ended = await end(ctx, workspaceId, exportId, outcome);
    return { outcome: ended?.status ?? 'skipped' };
  },
);
