import { z } from 'zod';
import { updateProductIfRevision } from '@workcell/db';
import { ProductUpdate } from '@workcell/registry';
import { nothingToChange } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertFinanceWrite, findProductOr404, productChanges, productEventView, productIdOf, type ProductView, versionedProduct } from './view.js';

export const updateProductInput = z.object({ id: z.string().max(64), ...ProductUpdate.shape }).strict();

/**
 * `PATCH /v1/products/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale): changes
 * the given attributes. purchasePrice needs products:finance:write (403, nothing written). Writes
 * `product.updated` (the changed attribute names and the product, both without purchasePrice) in the same transaction.
 */
export const updateProduct = defineProcedure('updateProduct', updateProductInput, async (op, input): Promise<Versioned<ProductView>> => {
  const { auth } = op;
  requireGrant(auth, 'product', input.id, 'write', 'product');
  const workspaceId = auth.workspaceId;
  const id = productIdOf(input.id);
  assertFinanceWrite(auth, input);
  const now = op.now();
  return op.transaction(async (tx) => {
    await findProductOr404(tx, workspaceId, id);
    const change = await productChanges(tx, auth, input);
    if (Object.keys(change).length === 0) throw nothingToChange();
    const outcome = await updateProductIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'product');
    const row = await findProductOr404(tx, workspaceId, id);
    await op.emit(tx, resourceEvent(op, { type: 'product', id, action: 'updated', view: productEventView(row), changed: Object.keys(change).filter((k) => k !== 'purchasePrice'), at: now }));
    return versionedProduct(row, auth);
  });
});
