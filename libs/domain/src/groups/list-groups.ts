import { z } from 'zod';
import { listGroupsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type GroupView, groupView } from './view.js';

export const listGroupsInput = z.object({ ...pageInput }).strict();

/** `GET /v1/groups`: the workspace's groups (archived ones never), oldest first. */
export const listGroups = defineProcedure('listGroups', listGroupsInput, async (op, { cursor, limit }): Promise<{ items: GroupView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listGroups' }, { cursor, limit }, (afterId, take) => listGroupsPage(op.database, auth.workspaceId, afterId, take));
  return { items: page.items.map(groupView), limit, nextCursor: page.nextCursor };
});
