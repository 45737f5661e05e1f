import { z } from 'zod';
import { listContactGroupsPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type ContactGroupView, contactGroupView } from './view.js';

export const listContactGroupsInput = z.object({ ...pageInput, parentId: z.string().max(64).optional() }).strict();

/**
 * `GET /v1/contact-groups`: the workspace's unarchived contact groups, oldest first, optionally only the
 * children of one group (a parent id of no group of this workspace matches nothing).
 */
export const listContactGroups = defineProcedure(
  'listContactGroups',
  listContactGroupsInput,
  async (op, { cursor, limit, parentId }): Promise<{ items: ContactGroupView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const parent = parentId?.toLowerCase();
    const scope = { workspaceId: auth.workspaceId, list: 'listContactGroups', filter: { parentId: parent ?? null } };
    const onlyIds = grantedIds(auth, 'contact_group');
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      parentId !== undefined && !isUuid(parentId) ? [] : listContactGroupsPage(op.database, auth.workspaceId, { parentId: parent, onlyIds }, afterId, take),
    );
    return { items: page.items.map(contactGroupView), limit, nextCursor: page.nextCursor };
  },
);
