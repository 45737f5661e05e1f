import { z } from 'zod';
import { insertProductGroup, lockProductGroupHierarchy } from '@workcell/db';
import { ProductGroupCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertProductGroupReference, type ProductGroupView, versionedProductGroup } from './view.js';

export const createProductGroupInput = z.object({ ...ProductGroupCreate.shape }).strict();

/**
 * `POST /v1/product-groups`: a new group, a root or under an unarchived group of the caller's workspace
 * (400 /parentId otherwise). Writes `product_group.created` in the same transaction.
 */
export const createProductGroup = defineProcedure('createProductGroup', createProductGroupInput, async (op, input): Promise<Versioned<ProductGroupView>> => {
  const { auth } = op;
  requireTypeGrant(auth, 'product_group', 'write', 'product groups');
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    let parentId: string | null = null;
    if (input.parentId !== undefined && input.parentId !== null) {
      await lockProductGroupHierarchy(tx, workspaceId);
      parentId = await assertProductGroupReference(tx, auth, input.parentId, '/parentId');
    }
    const row = await insertProductGroup(tx, workspaceId, { name: input.name, parentId });
    const result = versionedProductGroup(row);
    await op.emit(tx, resourceEvent(op, { type: 'product_group', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
