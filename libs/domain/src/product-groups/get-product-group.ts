import { z } from 'zod';
import { findProductGroup } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { productGroupNotFound, type ProductGroupView, versionedProductGroup } from './view.js';

export const getProductGroupInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/product-groups/{id}`: one group of the caller's workspace with its ancestors, archived or not. */
export const getProductGroup = defineProcedure('getProductGroup', getProductGroupInput, async (op, { id }): Promise<Versioned<ProductGroupView>> => {
  const { auth } = op;
  requireGrant(auth, 'product_group', id, 'read', 'product group');
  const row = isUuid(id) ? await findProductGroup(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw productGroupNotFound();
  return versionedProductGroup(row);
});
