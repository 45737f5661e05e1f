import { z } from 'zod';
import { listRolesPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type RoleView, roleView } from './view.js';

export const listRolesInput = z.object({ ...pageInput }).strict();

/** `GET /v1/roles`: the workspace's roles (archived ones never), oldest first. */
export const listRoles = defineProcedure('listRoles', listRolesInput, async (op, { cursor, limit }): Promise<{ items: RoleView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listRoles' }, { cursor, limit }, (afterId, take) => listRolesPage(op.database, auth.workspaceId, afterId, take));
  return { items: page.items.map(roleView), limit, nextCursor: page.nextCursor };
});
