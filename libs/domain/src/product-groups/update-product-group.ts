import { z } from 'zod';
import { lockProductGroupHierarchy, productGroupAncestors, updateProductGroupIfRevision } from '@workcell/db';
import { ProductGroupUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { validationError } from '../roles/permission-model.js';

import { assertProductGroupReference, findProductGroupOr404, productGroupIdOf, type ProductGroupView, versionedProductGroup } from './view.js';

export const updateProductGroupInput = z.object({ id: z.string().max(64), ...ProductGroupUpdate.shape }).strict();

function cycle(): DomainError {
  return new DomainError('hierarchy_cycle', 'a product group cannot be moved under itself or one of its own descendants', [
    { pointer: '/parentId', message: 'the new parent is this group or one of its descendants' },
  ]);
}

/**
 * `PATCH /v1/product-groups/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * renames and/or moves the group. Moving it under itself or one of its descendants is 409 hierarchy_cycle
 * and changes nothing. A move holds the workspace's hierarchy lock from before the cycle check until commit,
 * so two concurrent moves that would together form a cycle cannot both succeed. Writes `product_group.moved`
 * (parent changed) and/or `product_group.updated` (anything else) in the same transaction.
 */
export const updateProductGroup = defineProcedure('updateProductGroup', updateProductGroupInput, async (op, input): Promise<Versioned<ProductGroupView>> => {
  const { auth, requestId } = op;
  requireGrant(auth, 'product_group', input.id, 'write', 'product group');
  const workspaceId = auth.workspaceId;
  const id = productGroupIdOf(input.id);
  if (input.name === undefined && input.parentId === undefined) {
    throw validationError('nothing to change: name or parentId is needed', [{ pointer: '', message: 'name or parentId is required' }]);
  }
  const now = op.now();
  return op.transaction(async (tx) => {
    if (input.parentId !== undefined) await lockProductGroupHierarchy(tx, workspaceId);
    const current = await findProductGroupOr404(tx, workspaceId, id);
    let parentId: string | null | undefined = undefined;
    if (input.parentId === null) parentId = null;
    else if (input.parentId !== undefined) {
      if (input.parentId.toLowerCase() === id) throw cycle();
      parentId = await assertProductGroupReference(tx, auth, input.parentId, '/parentId');
      const ancestors = (await productGroupAncestors(tx, workspaceId, [parentId])).get(parentId) ?? [];
      if (ancestors.includes(id)) throw cycle();
    }
    const change = { ...(input.name === undefined ? {} : { name: input.name }), ...(parentId === undefined ? {} : { parentId }) };
    const outcome = await updateProductGroupIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'product group');
    const result = versionedProductGroup(await findProductGroupOr404(tx, workspaceId, id));
    const productGroup = { ...result.resource };
    const moved = parentId !== undefined && parentId !== current.parentId;
    if (moved) {
      await op.emit(tx, {
        aggregateType: 'product_group',
        aggregateId: id,
        eventType: 'product_group.moved',
        payload: { productGroup, fromParentId: current.parentId, toParentId: parentId, requestId },
        occurredAt: now,
      });
    }
    if (input.name !== undefined || !moved) {
      await op.emit(tx, resourceEvent(op, { type: 'product_group', id, action: 'updated', view: productGroup, changed: Object.keys(change), at: now }));
    }
    return result;
  });
});
