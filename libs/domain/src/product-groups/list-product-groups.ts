import { z } from 'zod';
import { listProductGroupsPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { productGroupView, type ProductGroupView } from './view.js';

export const listProductGroupsInput = z.object({ ...pageInput, parentId: z.string().max(64).optional() }).strict();

/**
 * `GET /v1/product-groups`: the workspace's unarchived product groups, oldest first, optionally only the
 * children of one group (a parent id of no group of this workspace matches nothing). A service account sees
 * only the groups its resource grants cover.
 */
export const listProductGroups = defineProcedure(
  'listProductGroups',
  listProductGroupsInput,
  async (op, { cursor, limit, parentId }): Promise<{ items: ProductGroupView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const parent = parentId?.toLowerCase();
    const onlyIds = grantedIds(auth, 'product_group');
    const scope = { workspaceId: auth.workspaceId, list: 'listProductGroups', filter: { parentId: parent ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      parentId !== undefined && !isUuid(parentId) ? [] : listProductGroupsPage(op.database, auth.workspaceId, { parentId: parent, onlyIds }, afterId, take),
    );
    return { items: page.items.map(productGroupView), limit, nextCursor: page.nextCursor };
  },
);
