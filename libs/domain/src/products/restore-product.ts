import { z } from 'zod';
import { appendOutboxEvent, inTransaction, setProductArchived } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { findProductOr404, productEventView, productIdOf, type ProductView, versionedProduct } from './view.js';

export const restoreProductInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `POST /v1/products/{id}/restore`: clears `archived_at` (no change when not archived); writes `product.restored`. */
export const restoreProduct = defineProcedure('restoreProduct', restoreProductInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<ProductView>> => {
  requireGrant(auth, 'product', rawId, 'write', 'product');
  const workspaceId = auth.workspaceId;
  const id = productIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findProductOr404(tx, workspaceId, id);
    const restored = await setProductArchived(tx, workspaceId, id, null);
    const row = await findProductOr404(tx, workspaceId, id);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'product', aggregateId: id, eventType: 'product.restored', payload: { product: productEventView(row), requestId }, occurredAt: now });
    }
    return versionedProduct(row, auth);
  });
});
