import { z } from 'zod';
import { findProduct } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { productNotFound, type ProductView, versionedProduct } from './view.js';

export const getProductInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/products/{id}`: one product of the caller's workspace, archived or not; purchasePrice only with products:finance:read. */
export const getProduct = defineProcedure('getProduct', getProductInput, async (op, { id }): Promise<Versioned<ProductView>> => {
  const { auth } = op;
  requireGrant(auth, 'product', id, 'read', 'product');
  const row = isUuid(id) ? await findProduct(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw productNotFound();
  return versionedProduct(row, auth);
});
