import { z } from 'zod';
import { appendOutboxEvent, inTransaction, setServiceArchived } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';
import { findServiceOr404, serviceIdOf } from './view.js';

export const archiveServiceInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/services/{id}`: archives the service (sets `archived_at`, never deletes; its rates are kept).
 * Archiving an archived one changes nothing. Writes `service.archived` in the same transaction.
 */
export const archiveService = defineProcedure('archiveService', archiveServiceInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'service', rawId, 'write', 'service');
  const workspaceId = auth.workspaceId;
  const id = serviceIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findServiceOr404(tx, workspaceId, id);
    if (await setServiceArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'service', aggregateId: id, eventType: 'service.archived', payload: { serviceId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
