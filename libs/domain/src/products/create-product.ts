import { z } from 'zod';
import { insertProduct } from '@workcell/db';
import { ProductCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertFinanceWrite, productChanges, productEventView, type ProductView, versionedProduct } from './view.js';

export const createProductInput = z.object({ ...ProductCreate.shape }).strict();

/**
 * `POST /v1/products`: a new product (revision 1). purchasePrice needs products:finance:write (403 before
 * anything is written); a product group must be an unarchived group of the workspace (400 /productGroupId).
 * Writes `product.created` (without purchasePrice) in the same transaction.
 */
export const createProduct = defineProcedure('createProduct', createProductInput, async (op, input): Promise<Versioned<ProductView>> => {
  const { auth } = op;
  requireTypeGrant(auth, 'product', 'write', 'products');
  assertFinanceWrite(auth, input);
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const values = await productChanges(tx, auth, input);
    const row = await insertProduct(tx, workspaceId, { ...values, name: input.name, unit: input.unit });
    const result = versionedProduct(row, auth);
    await op.emit(tx, resourceEvent(op, { type: 'product', id: row.id, action: 'created', view: productEventView(row), at: now, result }));
    return result;
  });
});
