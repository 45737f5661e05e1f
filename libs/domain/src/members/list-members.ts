import { z } from 'zod';
import { listMembersPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { seesPersonalData } from '../roles/permission-model.js';
import { pageInput } from '../kernel/inputs.js';
import { type MemberView, memberView, STATUS_TO_STORED } from './view.js';

export const listMembersInput = z.object({ status: z.enum(['active', 'deactivated']).optional(), roleId: z.string().max(64).optional(), ...pageInput }).strict();

/** `GET /v1/members`: the workspace's members (removed ones never), oldest first; personal data only with members:pii:read. */
export const listMembers = defineProcedure(
  'listMembers',
  listMembersInput,
  async (op, { status, roleId, cursor, limit }): Promise<{ items: MemberView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const personalData = seesPersonalData(auth);
    const scope = { workspaceId: auth.workspaceId, list: 'listMembers', filter: { status: status ?? null, roleId: roleId?.toLowerCase() ?? null } };
    const filter = { status: status === undefined ? undefined : STATUS_TO_STORED[status], roleId: roleId?.toLowerCase() };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      // A role id that is no UUID names no role: nobody holds it.
      roleId !== undefined && !isUuid(roleId) ? [] : listMembersPage(op.database, auth.workspaceId, filter, afterId, take),
    );
    return { items: page.items.map((row) => memberView(row, personalData)), limit, nextCursor: page.nextCursor };
  },
);
