import type { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';

/**
 * Workspace users: the workspace's (unremoved) memberships joined with their global User rows. A user is
 * addressed by the membership id (the id time entries and task assignees carry as `userId`); the global user
 * id is never shown, so one person cannot be correlated across workspaces. Only the display name is read:
 * email and other personal data stay with the members family (members:pii:read). Every query is scoped by
 * the workspace id.
 */

export interface WorkspaceUserRecord {
  readonly id: string;
  readonly status: 'active' | 'disabled';
  readonly name: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const select = {
  id: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { name: true, updatedAt: true } },
} as const satisfies Prisma.WorkspaceMemberSelect;

type Row = { id: string; status: 'active' | 'disabled'; createdAt: Date; updatedAt: Date; user: { name: string; updatedAt: Date } };

/** A rename of the person changes the workspace user as much as a status change does. */
function toRecord({ user, ...row }: Row): WorkspaceUserRecord {
  return Object.assign(row, { name: user.name, updatedAt: user.updatedAt > row.updatedAt ? user.updatedAt : row.updatedAt });
}

/** One user (membership id) of the workspace; null when missing, removed or in another workspace. */
export async function findWorkspaceUser(client: Db, workspaceId: string, id: string): Promise<WorkspaceUserRecord | null> {
  const row = await client.prisma.workspaceMember.findFirst({ where: { workspaceId, id, removedAt: null }, select });
  return row ? toRecord(row) : null;
}

/** One keyset page of the workspace's users in id order, optionally of one stored status. */
export async function listWorkspaceUsersPage(
  client: Db,
  workspaceId: string,
  filter: { readonly status?: 'active' | 'disabled' | undefined },
  afterId: string | undefined,
  take: number,
): Promise<WorkspaceUserRecord[]> {
  const rows = await client.prisma.workspaceMember.findMany({
    where: {
      workspaceId,
      removedAt: null,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(afterId === undefined ? {} : { id: { gt: afterId } }),
    },
    orderBy: { id: 'asc' },
    take,
    select,
  });
  return rows.map(toRecord);
}
