import { z } from 'zod';
import { appendOutboxEvent, inTransaction, setProductGroupArchived } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { findProductGroupOr404, productGroupIdOf, type ProductGroupView, versionedProductGroup } from './view.js';

export const restoreProductGroupInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `POST /v1/product-groups/{id}/restore`: clears `archived_at` (no change when not archived); writes `product_group.restored`. */
export const restoreProductGroup = defineProcedure('restoreProductGroup', restoreProductGroupInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<ProductGroupView>> => {
  requireGrant(auth, 'product_group', rawId, 'write', 'product group');
  const workspaceId = auth.workspaceId;
  const id = productGroupIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findProductGroupOr404(tx, workspaceId, id);
    const restored = await setProductGroupArchived(tx, workspaceId, id, null);
    const result = versionedProductGroup(await findProductGroupOr404(tx, workspaceId, id));
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'product_group', aggregateId: id, eventType: 'product_group.restored', payload: { productGroup: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
