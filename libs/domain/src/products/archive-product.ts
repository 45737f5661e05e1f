import { z } from 'zod';
import { appendOutboxEvent, inTransaction, setProductArchived } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import { writeInput } from '../kernel/inputs.js';
import { findProductOr404, productIdOf } from './view.js';

export const archiveProductInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `DELETE /v1/products/{id}`: archives (sets `archived_at`, never deletes); again changes nothing. Writes `product.archived`. */
export const archiveProduct = defineProcedure('archiveProduct', archiveProductInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'product', rawId, 'write', 'product');
  const workspaceId = auth.workspaceId;
  const id = productIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findProductOr404(tx, workspaceId, id);
    if (await setProductArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'product', aggregateId: id, eventType: 'product.archived', payload: { productId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
