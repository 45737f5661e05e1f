import { z } from 'zod';
import { findProductGroup, lockProductGroupHierarchy, productGroupAncestors, updateProductGroupIfRevision } from '@workcell/db';
import { ProductGroupUpdate } from '@workcell/registry';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { changeTreeGroup, type TreeGroupFamily } from '../kernel/tree-group-change.js';
import { validationError } from '../roles/permission-model.js';

import { assertProductGroupReference, productGroupIdOf, type ProductGroupView } from './view.js';

/** Product groups' tree; a parent is an active group the caller's grants let it name. */
const productGroupTree: TreeGroupFamily = {
  type: 'product_group',
  lock: lockProductGroupHierarchy,
  find: findProductGroup,
  ancestors: productGroupAncestors,
  updateIfRevision: updateProductGroupIfRevision,
  parentOf: (tx, auth, rawParentId) => assertProductGroupReference(tx, auth, rawParentId, '/parentId'),
};

export const updateProductGroupInput = z.object({ id: z.string().max(64), ...ProductGroupUpdate.shape }).strict();

/**
 * `PATCH /v1/product-groups/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * renames and/or moves the group. Moving it under itself or one of its descendants is 409 hierarchy_cycle
 * and changes nothing. A move holds the workspace's hierarchy lock from before the cycle check until commit,
 * so two concurrent moves that would together form a cycle cannot both succeed. Writes `product_group.moved`
 * (parent changed) and/or `product_group.updated` (anything else) in the same transaction.
 */
export const updateProductGroup = defineProcedure('updateProductGroup', updateProductGroupInput, async (op, input): Promise<Versioned<ProductGroupView>> => {
  requireGrant(op.auth, 'product_group', input.id, 'write', 'product group');
  const id = productGroupIdOf(input.id);
  if (input.name === undefined && input.parentId === undefined) {
    throw validationError('nothing to change: name or parentId is needed', [{ pointer: '', message: 'name or parentId is required' }]);
  }
  return changeTreeGroup(op, productGroupTree, id, input);
});
