import { clearExpiredFileBytes, expireUpload, inTransaction, lockLapsedReservations, purgeExpiredDownloadIntents } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import { storageOf } from './intents.js';
import { fileView } from './view.js';
import { platformEvents } from '../kernel/procedure.js';

/** How long an expired download capability is kept (it answers 410 meanwhile), and the sweep's batch size. */
const DOWNLOAD_INTENT_RETENTION_MS = 24 * 3_600_000;
const BATCH = 500;

export interface FileSweep {
  readonly expired: number;
  readonly cleared: number;
  readonly abandoned: number;
  readonly downloadIntentsPurged: number;
}

/**
 * The worker's recurring file sweep (job `files.sweep`, every FILE_SWEEP_INTERVAL_MS): marks lapsed upload
 * reservations expired with their pending files (`file.expired`, in the same transaction), removes the bytes of
 * expired files (uploaded but never completed), the storage's abandoned temporary uploads, and download
 * capabilities a day past their expiry. Reservations and files are taken `FOR UPDATE SKIP LOCKED`, so two workers
 * sweeping at once each expire and clear a file exactly once.
 */
export async function sweepFiles(ctx: ProcedureContext): Promise<FileSweep> {
  const now = ctx.now();
  const storage = storageOf(ctx);
  let expired = 0;
  for (;;) {
    const batch = await inTransaction(ctx.database, async (tx) => {
      const lapsed = await lockLapsedReservations(tx, now, BATCH);
      for (const reservation of lapsed) {
        const file = await expireUpload(tx, reservation.workspaceId, reservation.id, reservation.fileId);
        if (!file) continue;
        // The worker sweeps files: its events name no actor.
        await platformEvents(reservation.workspaceId).emit(tx, {
          aggregateType: 'file',
          aggregateId: file.id,
          eventType: 'file.expired',
          payload: { file: { ...fileView(file) } },
          occurredAt: now,
        });
        expired++;
      }
      return lapsed.length;
    });
    if (batch < BATCH) break;
  }
  let cleared = 0;
  for (;;) {
    const batch = await clearExpiredFileBytes(ctx.database, now, BATCH, (key) => storage.remove(key));
    cleared += batch;
    if (batch < BATCH) break;
  }
  const abandoned = await storage.removeAbandoned(new Date(now.getTime() - ctx.config.files.uploadTtlMs));
  const downloadIntentsPurged = await purgeExpiredDownloadIntents(ctx.database, new Date(now.getTime() - DOWNLOAD_INTENT_RETENTION_MS));
  return { expired, cleared, abandoned, downloadIntentsPurged };
}
