import { z } from 'zod';
import { listRolesPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { type RoleView, roleView } from './view.js';

export const listRolesInput = z.object({ auth: authInput, ...pageInput }).strict();

/** `GET /v1/roles`: the workspace's roles (archived ones never), oldest first. */
export const listRoles = defineProcedure('listRoles', listRolesInput, async (ctx, { auth, cursor, limit }): Promise<{ items: RoleView[]; limit: number; nextCursor: string | null }> => {
  const page = await paginate(ctx.config, { workspaceId: auth.workspaceId, list: 'listRoles' }, { cursor, limit }, (afterId, take) => listRolesPage(ctx.database, auth.workspaceId, afterId, take));
  return { items: page.items.map(roleView), limit, nextCursor: page.nextCursor };
});
