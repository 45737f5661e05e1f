import { assertChangingAuthorization, type Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * Workspace groups. Archived groups (deleteGroup) keep their rows and membership links for the audit
 * trail and project access entries, and are invisible here: every read and write filters
 * `archived_at IS NULL`. A group's revision guards its attributes and its membership. Every query is
 * scoped by the workspace id.
 */

export interface GroupRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly description: string | null;
  readonly revision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Unremoved members in the group. */
  readonly memberCount: number;
}

const groupSelect = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { groupMembers: { where: { member: { removedAt: null } } } } },
} as const;

type GroupRow = {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
  _count: { groupMembers: number };
};

function toRecord({ _count, ...row }: GroupRow): GroupRecord {
  return Object.assign(row, { memberCount: _count.groupMembers });
}

export async function findGroup(client: Db, workspaceId: string, id: string): Promise<GroupRecord | null> {
  const row = await client.prisma.group.findFirst({ where: { workspaceId, id, archivedAt: null }, select: groupSelect });
  return row ? toRecord(row) : null;
}

/** One keyset page of the workspace's groups in id order: ids after `afterId`, at most `take`. */
export async function listGroupsPage(client: Db, workspaceId: string, afterId: string | undefined, take: number): Promise<GroupRecord[]> {
  const rows = await client.prisma.group.findMany({
    where: { workspaceId, archivedAt: null, ...(afterId === undefined ? {} : { id: { gt: afterId } }) },
    orderBy: { id: 'asc' },
    take,
    select: groupSelect,
  });
  return rows.map(toRecord);
}

export async function insertGroup(tx: Db, workspaceId: string, input: { name: string; description: string | null }): Promise<GroupRecord> {
  const row = await tx.prisma.group.create({ data: { workspaceId, name: input.name, description: input.description }, select: groupSelect });
  return toRecord(row);
}

/**
 * Compare-and-set of a group: one `UPDATE … WHERE revision = $expected`. It also takes the group's row
 * lock, so a membership replacement that follows in the same transaction cannot interleave with another.
 */
export async function updateGroupIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, change: { name?: string; description?: string | null }): Promise<CasOutcome> {
  const { count } = await tx.prisma.group.updateMany({
    where: { workspaceId, id, archivedAt: null, revision: expectedRevision },
    data: {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.description === undefined ? {} : { description: change.description }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await findGroup(tx, workspaceId, id)) ? 'version_conflict' : 'not_found';
}

/** Archives a group (never deletes it); false when it is missing or already archived. */
export async function archiveGroup(tx: Db, workspaceId: string, id: string, now: Date): Promise<boolean> {
  // Its members lose what its project access-control entries gave them (visibility.ts): an authorization change.
  assertChangingAuthorization(workspaceId);
  const { count } = await tx.prisma.group.updateMany({ where: { workspaceId, id, archivedAt: null }, data: { archivedAt: now, revision: { increment: 1 } } });
  return count === 1;
}

export interface GroupMemberRecord {
  readonly memberId: string;
  readonly addedAt: Date;
}

/** One keyset page of a group's (unremoved) members in member-id order. */
export async function listGroupMembersPage(client: Db, workspaceId: string, groupId: string, afterMemberId: string | undefined, take: number): Promise<GroupMemberRecord[]> {
  const rows = await client.prisma.groupMember.findMany({
    where: { workspaceId, groupId, member: { removedAt: null }, ...(afterMemberId === undefined ? {} : { memberId: { gt: afterMemberId } }) },
    orderBy: { memberId: 'asc' },
    take,
    select: { memberId: true, createdAt: true },
  });
  return rows.map((r) => ({ memberId: r.memberId, addedAt: r.createdAt }));
}

/** Makes the group hold exactly `memberIds` (ids of unremoved members); members who stay keep their addedAt. */
export async function replaceGroupMemberLinks(tx: Db, workspaceId: string, groupId: string, memberIds: readonly string[]): Promise<{ added: string[]; removed: string[] }> {
  // Who is in a group decides which shared projects they see (visibility.ts): an authorization change.
  assertChangingAuthorization(workspaceId);
  const current = (await tx.prisma.groupMember.findMany({ where: { workspaceId, groupId }, select: { memberId: true } })).map((r) => r.memberId);
  const wanted = new Set(memberIds);
  const have = new Set(current);
  const removed = current.filter((id) => !wanted.has(id));
  const added = [...wanted].filter((id) => !have.has(id));
  if (removed.length > 0) await tx.prisma.groupMember.deleteMany({ where: { workspaceId, groupId, memberId: { in: removed } } });
  if (added.length > 0) await tx.prisma.groupMember.createMany({ data: added.map((memberId) => ({ workspaceId, groupId, memberId })) });
  return { added, removed };
}
