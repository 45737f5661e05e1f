import { z } from 'zod';
import { listProductsPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { holdsProductFinanceRead, productView, type ProductView } from './view.js';

export const listProductsInput = z.object({ ...pageInput, productGroupId: z.string().max(64).optional() }).strict();

/**
 * `GET /v1/products`: the workspace's unarchived products, oldest first, optionally only those of one group
 * (an id of no group matches nothing); purchasePrice only with products:finance:read. A service account sees
 * only the products its resource grants cover.
 */
export const listProducts = defineProcedure(
  'listProducts',
  listProductsInput,
  async (op, { cursor, limit, productGroupId }): Promise<{ items: ProductView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const group = productGroupId?.toLowerCase();
    const onlyIds = grantedIds(auth, 'product');
    const scope = { workspaceId: auth.workspaceId, list: 'listProducts', filter: { productGroupId: group ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      productGroupId !== undefined && !isUuid(productGroupId) ? [] : listProductsPage(op.database, auth.workspaceId, { productGroupId: group, onlyIds }, afterId, take),
    );
    const finance = holdsProductFinanceRead(auth);
    return { items: page.items.map((row) => productView(row, finance)), limit, nextCursor: page.nextCursor };
  },
);
