import { z } from 'zod';
import { listWorkspaceUsersPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { USER_STATUS_TO_STORED, type UserView, userView } from './view.js';

export const listUsersInput = z.object({ ...pageInput, status: z.enum(['active', 'inactive']).optional() }).strict();

/** `GET /v1/users`: the workspace's users (removed members never), oldest membership first, optionally of one status. */
export const listUsers = defineProcedure('listUsers', listUsersInput, async (op, { cursor, limit, status }): Promise<{ items: UserView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const scope = { workspaceId: auth.workspaceId, list: 'listUsers', filter: { status: status ?? null } };
  const filter = { status: status === undefined ? undefined : USER_STATUS_TO_STORED[status] };
  const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => listWorkspaceUsersPage(op.database, auth.workspaceId, filter, afterId, take));
  return { items: page.items.map(userView), limit, nextCursor: page.nextCursor };
});
