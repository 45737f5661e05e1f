import { z } from 'zod';
import { findGroup, listGroupMembersPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type GroupMemberView, groupMemberView } from './view.js';

export const listGroupMembersInput = z.object({ id: z.string().max(64), ...pageInput }).strict();

/** `GET /v1/groups/{id}/members`: the group's members (ids and when they were added), in member-id order. */
export const listGroupMembers = defineProcedure(
  'listGroupMembers',
  listGroupMembersInput,
  async (op, { id, cursor, limit }): Promise<{ items: GroupMemberView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const groupId = id.toLowerCase();
    if (!isUuid(groupId) || !(await findGroup(op.database, auth.workspaceId, groupId))) throw new DomainError('not_found', 'group not found');
    const scope = { workspaceId: auth.workspaceId, list: 'listGroupMembers', filter: { groupId } };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      (await listGroupMembersPage(op.database, auth.workspaceId, groupId, afterId, take)).map((row) => ({ id: row.memberId, row })),
    );
    return { items: page.items.map(({ row }) => groupMemberView(row)), limit, nextCursor: page.nextCursor };
  },
);
