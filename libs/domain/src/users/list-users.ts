import { z } from 'zod';
import { listWorkspaceUsersPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { USER_STATUS_TO_STORED, type UserView, userView } from './view.js';

export const listUsersInput = z.object({ auth: authInput, ...pageInput, status: z.enum(['active', 'inactive']).optional() }).strict();

/** `GET /v1/users`: the workspace's users (removed members never), oldest membership first, optionally of one status. */
export const listUsers = defineProcedure('listUsers', listUsersInput, async (ctx, { auth, cursor, limit, status }): Promise<{ items: UserView[]; limit: number; nextCursor: string | null }> => {
  const scope = { workspaceId: auth.workspaceId, list: 'listUsers', filter: { status: status ?? null } };
  const filter = { status: status === undefined ? undefined : USER_STATUS_TO_STORED[status] };
  const page = await paginate(ctx.config, scope, { cursor, limit }, async (afterId, take) => listWorkspaceUsersPage(ctx.database, auth.workspaceId, filter, afterId, take));
  return { items: page.items.map(userView), limit, nextCursor: page.nextCursor };
});
