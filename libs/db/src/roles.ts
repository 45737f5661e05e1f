import { assertChangingAuthorization, type Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * Roles: named sets of permission keys. Archived roles (deleteRole) stay in the table for the audit trail
 * and are invisible here: every read and write filters `archived_at IS NULL`. Every query is scoped by
 * the workspace id.
 */

export interface RoleRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly description: string | null;
  readonly permissions: readonly string[];
  readonly isSystem: boolean;
  readonly revision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const roleSelect = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  permissions: true,
  isSystem: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
} as const;

export async function findRole(client: Db, workspaceId: string, id: string): Promise<RoleRecord | null> {
  return client.prisma.role.findFirst({ where: { workspaceId, id, archivedAt: null }, select: roleSelect });
}

/** One keyset page of the workspace's roles in id order: ids after `afterId`, at most `take`. */
export async function listRolesPage(client: Db, workspaceId: string, afterId: string | undefined, take: number): Promise<RoleRecord[]> {
  return client.prisma.role.findMany({
    where: { workspaceId, archivedAt: null, ...(afterId === undefined ? {} : { id: { gt: afterId } }) },
    orderBy: { id: 'asc' },
    take,
    select: roleSelect,
  });
}

/** Whether another role of the workspace (archived ones included: names are unique per workspace) has this name. */
export async function roleNameTaken(tx: Db, workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
  const row = await tx.prisma.role.findFirst({ where: { workspaceId, name, ...(exceptId === undefined ? {} : { id: { not: exceptId } }) }, select: { id: true } });
  return row !== null;
}

export async function insertRole(tx: Db, workspaceId: string, input: { name: string; description: string | null; permissions: readonly string[] }): Promise<RoleRecord> {
  return tx.prisma.role.create({
    data: { workspaceId, name: input.name, description: input.description, permissions: [...input.permissions] },
    select: roleSelect,
  });
}

/** Compare-and-set of a role's attributes and/or permissions: one `UPDATE … WHERE revision = $expected`. */
export async function updateRoleIfRevision(
  tx: Db,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  change: { name?: string; description?: string | null; permissions?: readonly string[] },
): Promise<CasOutcome> {
  assertChangingAuthorization(workspaceId);
  const { count } = await tx.prisma.role.updateMany({
    where: { workspaceId, id, archivedAt: null, revision: expectedRevision },
    data: {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.permissions === undefined ? {} : { permissions: [...change.permissions] }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await findRole(tx, workspaceId, id)) ? 'version_conflict' : 'not_found';
}

/** Archives a role (never deletes it); false when it is missing or already archived. */
export async function archiveRole(tx: Db, workspaceId: string, id: string, now: Date): Promise<boolean> {
  assertChangingAuthorization(workspaceId);
  const { count } = await tx.prisma.role.updateMany({ where: { workspaceId, id, archivedAt: null }, data: { archivedAt: now, revision: { increment: 1 } } });
  return count === 1;
}

/** What still refers to a role: members holding it and pending invitations that would grant it. */
export async function roleUsage(tx: Db, workspaceId: string, id: string, now: Date): Promise<{ members: number; pendingInvitations: number }> {
  const members = await tx.prisma.memberRole.count({ where: { workspaceId, roleId: id } });
  const pendingInvitations = await tx.prisma.invitation.count({ where: { workspaceId, status: 'pending', expiresAt: { gt: now }, roles: { some: { roleId: id } } } });
  return { members, pendingInvitations };
}

/** Of the given ids (UUIDs), those naming an unarchived role of the workspace, with that role's permission keys. */
export async function findRolePermissions(tx: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, readonly string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.prisma.role.findMany({ where: { workspaceId, id: { in: [...ids] }, archivedAt: null }, select: { id: true, permissions: true } });
  return new Map(rows.map((r) => [r.id, r.permissions]));
}
