import { z } from 'zod';
import { findProductGroup } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { authInput } from '../kernel/inputs.js';
import { productGroupNotFound, type ProductGroupView, versionedProductGroup } from './view.js';

export const getProductGroupInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/product-groups/{id}`: one group of the caller's workspace with its ancestors, archived or not. */
export const getProductGroup = defineProcedure('getProductGroup', getProductGroupInput, async (ctx, { auth, id }): Promise<Versioned<ProductGroupView>> => {
  requireGrant(auth, 'product_group', id, 'read', 'product group');
  const row = isUuid(id) ? await findProductGroup(ctx.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw productGroupNotFound();
  return versionedProductGroup(row);
});
