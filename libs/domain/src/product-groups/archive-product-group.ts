import { z } from 'zod';
import { appendOutboxEvent, inTransaction, setProductGroupArchived } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import { writeInput } from '../kernel/inputs.js';
import { findProductGroupOr404, productGroupIdOf } from './view.js';

export const archiveProductGroupInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/product-groups/{id}`: archives the group (sets `archived_at`, never deletes; its child groups
 * and its products keep pointing at it). Archiving an archived group changes nothing. Writes
 * `product_group.archived` in the same transaction as the change.
 */
export const archiveProductGroup = defineProcedure('archiveProductGroup', archiveProductGroupInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'product_group', rawId, 'write', 'product group');
  const workspaceId = auth.workspaceId;
  const id = productGroupIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findProductGroupOr404(tx, workspaceId, id);
    if (await setProductGroupArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'product_group', aggregateId: id, eventType: 'product_group.archived', payload: { productGroupId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
