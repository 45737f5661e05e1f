import { assertChangingAuthorization, type Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * Workspace memberships. A removed member (removeMember) keeps its row, because credentials, time entries
 * and audit events refer to it, but is disabled, holds no roles and no groups, has `removed_at` set and is
 * invisible here: every read and write filters `removed_at IS NULL`. Every query is scoped by the
 * workspace id.
 */

export interface MemberRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly status: 'active' | 'disabled';
  readonly joinedAt: Date;
  readonly disabledAt: Date | null;
  readonly revision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Personal data: the caller decides whether it may be shown. */
  readonly user: { readonly email: string; readonly name: string };
  /** Roles held (not archived), in id order. */
  readonly roleIds: readonly string[];
  /** Groups belonged to (not archived), in id order. */
  readonly groupIds: readonly string[];
}

const memberSelect = {
  id: true,
  workspaceId: true,
  userId: true,
  status: true,
  joinedAt: true,
  disabledAt: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { email: true, name: true } },
  memberRoles: { where: { role: { archivedAt: null } }, select: { roleId: true }, orderBy: { roleId: 'asc' } },
  groupMembers: { where: { group: { archivedAt: null } }, select: { groupId: true }, orderBy: { groupId: 'asc' } },
} as const;

type MemberRow = {
  id: string;
  workspaceId: string;
  userId: string;
  status: 'active' | 'disabled';
  joinedAt: Date;
  disabledAt: Date | null;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
  user: { email: string; name: string };
  memberRoles: { roleId: string }[];
  groupMembers: { groupId: string }[];
};

function toRecord({ memberRoles, groupMembers, ...row }: MemberRow): MemberRecord {
  return Object.assign(row, { roleIds: memberRoles.map((r) => r.roleId), groupIds: groupMembers.map((g) => g.groupId) });
}

export async function findMember(client: Db, workspaceId: string, id: string): Promise<MemberRecord | null> {
  const row = await client.prisma.workspaceMember.findFirst({ where: { workspaceId, id, removedAt: null }, select: memberSelect });
  return row ? toRecord(row) : null;
}

export interface MemberFilter {
  readonly status?: 'active' | 'disabled' | undefined;
  /** Only members holding this role. */
  readonly roleId?: string | undefined;
}

/** One keyset page of the workspace's members in id order: ids after `afterId`, at most `take`. */
export async function listMembersPage(client: Db, workspaceId: string, filter: MemberFilter, afterId: string | undefined, take: number): Promise<MemberRecord[]> {
  const rows = await client.prisma.workspaceMember.findMany({
    where: {
      workspaceId,
      removedAt: null,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.roleId === undefined ? {} : { memberRoles: { some: { roleId: filter.roleId } } }),
      ...(afterId === undefined ? {} : { id: { gt: afterId } }),
    },
    orderBy: { id: 'asc' },
    take,
    select: memberSelect,
  });
  return rows.map(toRecord);
}

/** Compare-and-set of a member's status: one `UPDATE … WHERE revision = $expected` (also bumps the revision when only roles change). */
export async function updateMemberIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, change: { status?: { to: 'active' | 'disabled'; at: Date } }): Promise<CasOutcome> {
  assertChangingAuthorization(workspaceId);
  const status = change.status;
  const { count } = await tx.prisma.workspaceMember.updateMany({
    where: { workspaceId, id, removedAt: null, revision: expectedRevision },
    data: {
      ...(status === undefined ? {} : { status: status.to, disabledAt: status.to === 'disabled' ? status.at : null }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await findMember(tx, workspaceId, id)) ? 'version_conflict' : 'not_found';
}

/** Makes the member hold exactly `roleIds` (ids of existing roles); keeps untouched assignments as they are. */
export async function replaceMemberRoles(tx: Db, workspaceId: string, memberId: string, roleIds: readonly string[]): Promise<{ added: string[]; removed: string[] }> {
  assertChangingAuthorization(workspaceId);
  const current = (await tx.prisma.memberRole.findMany({ where: { workspaceId, memberId }, select: { roleId: true } })).map((r) => r.roleId);
  const wanted = new Set(roleIds);
  const removed = current.filter((id) => !wanted.has(id));
  const added = [...wanted].filter((id) => !current.includes(id));
  if (removed.length > 0) await tx.prisma.memberRole.deleteMany({ where: { workspaceId, memberId, roleId: { in: removed } } });
  if (added.length > 0) await tx.prisma.memberRole.createMany({ data: added.map((roleId) => ({ workspaceId, memberId, roleId })) });
  return { added, removed };
}

/**
 * Removes a member from the workspace without deleting it: disables it, sets removed_at, unassigns every
 * role and group (bumping the revision of those groups, whose membership changed). Returns what it held,
 * or null when there is no such (unremoved) member.
 */
export async function markMemberRemoved(tx: Db, workspaceId: string, id: string, now: Date): Promise<{ roleIds: string[]; groupIds: string[]; wasActive: boolean } | null> {
  assertChangingAuthorization(workspaceId);
  const before = await tx.prisma.workspaceMember.findFirst({ where: { workspaceId, id, removedAt: null }, select: { status: true, disabledAt: true } });
  if (!before) return null;
  const { count } = await tx.prisma.workspaceMember.updateMany({
    where: { workspaceId, id, removedAt: null },
    data: { status: 'disabled', disabledAt: before.disabledAt ?? now, removedAt: now, revision: { increment: 1 } },
  });
  if (count === 0) return null;
  const roleIds = (await tx.prisma.memberRole.findMany({ where: { workspaceId, memberId: id }, select: { roleId: true }, orderBy: { roleId: 'asc' } })).map((r) => r.roleId);
  const groupIds = (await tx.prisma.groupMember.findMany({ where: { workspaceId, memberId: id }, select: { groupId: true }, orderBy: { groupId: 'asc' } })).map((g) => g.groupId);
  await tx.prisma.memberRole.deleteMany({ where: { workspaceId, memberId: id } });
  await tx.prisma.groupMember.deleteMany({ where: { workspaceId, memberId: id } });
  if (groupIds.length > 0) await tx.prisma.group.updateMany({ where: { workspaceId, id: { in: groupIds } }, data: { revision: { increment: 1 } } });
  return { roleIds, groupIds, wasActive: before.status === 'active' };
}

/**
 * Active, unremoved members holding every one of `permissions` through their (unarchived) roles: the
 * members who can still administer the workspace.
 */
export async function countMembersHoldingAll(tx: Db, workspaceId: string, permissions: readonly string[]): Promise<number> {
  return tx.prisma.workspaceMember.count({
    where: {
      workspaceId,
      status: 'active',
      removedAt: null,
      AND: permissions.map((permission) => ({ memberRoles: { some: { role: { archivedAt: null, permissions: { has: permission } } } } })),
    },
  });
}

/**
 * Of the given ids (UUIDs), those naming an unremoved member of the workspace. The rows stay share-locked
 * until the transaction ends, so a concurrent removeMember cannot slip in between this check and the
 * caller's write.
 */
export async function lockExistingMemberIds(tx: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.prisma.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM workspace_members
    WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${[...ids]}::uuid[]) AND removed_at IS NULL
    FOR SHARE`;
  return new Set(rows.map((r) => r.id));
}

/** The permission keys an active, unremoved member currently holds through its unarchived roles (none otherwise). */
export async function memberPermissionKeys(client: Db, workspaceId: string, memberId: string): Promise<string[]> {
  const row = await client.prisma.workspaceMember.findFirst({
    where: { workspaceId, id: memberId, status: 'active', removedAt: null },
    select: { memberRoles: { where: { role: { archivedAt: null } }, select: { role: { select: { permissions: true } } } } },
  });
  return row ? [...new Set(row.memberRoles.flatMap((mr) => mr.role.permissions))] : [];
}
