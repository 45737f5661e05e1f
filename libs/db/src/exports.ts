import type { Prisma as PrismaTypes } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { inTransaction } from './transactions.js';

/**
 * v1 exports (issue 14). An export belongs to the credential that created it: every read names that credential, so
 * another credential of the workspace (which may read less) never sees it. State moves forward only, each step one
 * conditional UPDATE (`WHERE status = …`), so a retried or duplicated job cannot run an export twice or revive an
 * expired one: queued -> running -> succeeded | failed; succeeded -> expired (the purge, bytes removed first).
 */

export type ExportStatusValue = 'queued' | 'running' | 'succeeded' | 'failed' | 'expired';
export type ExportFormatValue = 'csv' | 'jsonl';

export interface ExportRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly status: ExportStatusValue;
  readonly resourceTypes: string[];
  readonly format: ExportFormatValue;
  readonly updatedSince: Date | null;
  readonly authSnapshot: unknown;
  readonly rowsDone: number;
  readonly rowsTotal: number | null;
  readonly failureReason: string | null;
  readonly storageKey: string | null;
  readonly sizeBytes: number | null;
  readonly requestedByCredentialId: string;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly expiresAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

type Row = Omit<ExportRecord, 'status' | 'format' | 'sizeBytes'> & { status: string; format: string; sizeBytes: bigint | null };

const record = (row: Row): ExportRecord => ({
  ...row,
  status: row.status as ExportStatusValue,
  format: row.format as ExportFormatValue,
  sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
});

export interface NewExport {
  readonly resourceTypes: readonly string[];
  readonly format: ExportFormatValue;
  readonly updatedSince: Date | null;
  readonly authSnapshot: unknown;
  readonly requestedByCredentialId: string;
}

export async function insertExport(tx: Db, workspaceId: string, input: NewExport, now: Date): Promise<ExportRecord> {
  const row = await tx.prisma.export.create({
    data: { workspaceId, ...input, resourceTypes: [...input.resourceTypes], authSnapshot: input.authSnapshot as PrismaTypes.InputJsonValue, createdAt: now, updatedAt: now },
  });
  return record(row);
}

/** One export of the credential (null when missing or another credential's). */
export async function findExport(client: Db, workspaceId: string, credentialId: string, id: string): Promise<ExportRecord | null> {
  const row = await client.prisma.export.findFirst({ where: { workspaceId, id, requestedByCredentialId: credentialId } });
  return row ? record(row) : null;
}

/** The export the job runs, whoever created it. */
export async function findExportForJob(client: Db, workspaceId: string, id: string): Promise<ExportRecord | null> {
  const row = await client.prisma.export.findFirst({ where: { workspaceId, id } });
  return row ? record(row) : null;
}

/** One keyset page of the credential's exports, newest first (ids are UUIDv7: descending id is newest first). */
export async function listExportsPage(
  client: Db,
  workspaceId: string,
  credentialId: string,
  status: ExportStatusValue | undefined,
  beforeId: string | undefined,
  take: number,
): Promise<ExportRecord[]> {
  const rows = await client.prisma.export.findMany({
    where: { workspaceId, requestedByCredentialId: credentialId, ...(status === undefined ? {} : { status }), ...(beforeId === undefined ? {} : { id: { lt: beforeId } }) },
    orderBy: { id: 'desc' },
    take,
  });
  return rows.map(record);
}

/** queued -> running; false when the export is not queued (already run, failed or running elsewhere). */
export async function startExport(database: Db, workspaceId: string, id: string, now: Date): Promise<boolean> {
  const { count } = await database.prisma.export.updateMany({ where: { workspaceId, id, status: 'queued' }, data: { status: 'running', startedAt: now, updatedAt: now } });
  return count === 1;
}

/** Progress of a running export (no event: a counter, polled on the resource). */
export async function setExportProgress(database: Db, workspaceId: string, id: string, rowsDone: number, now: Date): Promise<void> {
  await database.prisma.export.updateMany({ where: { workspaceId, id, status: 'running' }, data: { rowsDone, updatedAt: now } });
}

export interface ExportOutcome {
  readonly status: 'succeeded' | 'failed';
  readonly rowsDone: number;
  readonly rowsTotal: number | null;
  readonly failureReason: string | null;
  readonly storageKey: string | null;
  readonly sizeBytes: number | null;
  readonly expiresAt: Date | null;
}

/**
 * Ends a queued or running export with its outcome (in the caller's transaction, which appends its event); null when
 * it had ended already.
 */
export async function finishExport(tx: Db, workspaceId: string, id: string, outcome: ExportOutcome, now: Date): Promise<ExportRecord | null> {
  const { count } = await tx.prisma.export.updateMany({
    where: { workspaceId, id, status: { in: ['queued', 'running'] } },
    data: { ...outcome, sizeBytes: outcome.sizeBytes === null ? null : BigInt(outcome.sizeBytes), finishedAt: now, updatedAt: now },
  });
  return count === 0 ? null : record(await tx.prisma.export.findFirstOrThrow({ where: { workspaceId, id } }));
}

/**
 * Expires up to `limit` succeeded exports whose result lapsed before `now`: removes each one's bytes (`remove`), then
 * marks it expired without a storage key and calls `expired` with the row (to append its event), one transaction per batch; rows another worker holds
 * are skipped (FOR UPDATE SKIP LOCKED). The number expired.
 */
export async function expireExports(database: Db, now: Date, limit: number, remove: (storageKey: string) => Promise<void>, expired: (tx: Db, row: ExportRecord) => Promise<void>): Promise<number> {
  return inTransaction(
    database,
    async (tx) => {
      const due = await tx.prisma.$queryRaw<{ workspace_id: string; id: string; storage_key: string | null }[]>`
        SELECT workspace_id::text, id::text, storage_key FROM exports
        WHERE status = 'succeeded' AND expires_at <= ${now}::timestamptz
        ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
      for (const due1 of due) {
        if (due1.storage_key !== null) await remove(due1.storage_key);
        await tx.prisma.export.updateMany({ where: { workspaceId: due1.workspace_id, id: due1.id }, data: { status: 'expired', storageKey: null, updatedAt: now } });
        await expired(tx, record(await tx.prisma.export.findFirstOrThrow({ where: { workspaceId: due1.workspace_id, id: due1.id } })));
      }
      return due.length;
    },
    { timeout: 60_000 },
  );
}
