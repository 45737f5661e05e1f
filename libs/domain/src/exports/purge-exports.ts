import { expireExports } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import { storageOf } from '../files/intents.js';
import { exportEventView } from './view.js';
import { platformEvents } from '../kernel/procedure.js';

const BATCH = 100;

/**
 * The purge (job `exports.purge`): every succeeded export whose result expired loses its bytes and becomes `expired`
 * (`export.expired`), in batches until none is left. Several workers split the work (FOR UPDATE SKIP LOCKED).
 */
export async function purgeExpiredExports(ctx: ProcedureContext): Promise<{ expired: number }> {
  const storage = storageOf(ctx);
  let expired = 0;
  for (;;) {
    const batch = await expireExports(
      ctx.database,
      ctx.now(),
      BATCH,
      (key) => storage.remove(key),
      async (tx, row) => void (await platformEvents(row.workspaceId).emit(tx, { aggregateType: 'export', aggregateId: row.id, eventType: 'export.expired', payload: exportEventView(row) })),
    );
    expired += batch;
    if (batch < BATCH) return { expired };
  }
}
