import type { Db } from './database.js';

export interface WorkspaceRecord {
  readonly id: string;
  readonly name: string;
  readonly region: string;
  readonly cell: string;
  readonly lockedAt: Date | null;
  readonly revision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export async function findWorkspace(database: Db, workspaceId: string): Promise<WorkspaceRecord | null> {
  return database.prisma.workspace.findUnique({
    where: { id: workspaceId },
    select: { id: true, name: true, region: true, cell: true, lockedAt: true, revision: true, createdAt: true, updatedAt: true },
  });
}

export interface WorkspaceUsage {
  readonly activeMembers: number;
  readonly activeServiceAccounts: number;
  readonly activeCredentials: number;
  readonly projects: number;
}

/** What the workspace uses now, as the entitlements report it (archived and removed things do not count). */
export async function workspaceUsage(database: Db, workspaceId: string): Promise<WorkspaceUsage> {
  const p = database.prisma;
  const [activeMembers, activeServiceAccounts, activeCredentials, projects] = await Promise.all([
    p.workspaceMember.count({ where: { workspaceId, status: 'active', removedAt: null } }),
    p.serviceAccount.count({ where: { workspaceId, status: 'active', archivedAt: null } }),
    p.credential.count({ where: { workspaceId, status: 'active', revokedAt: null } }),
    p.project.count({ where: { workspaceId, archivedAt: null } }),
  ]);
  return { activeMembers, activeServiceAccounts, activeCredentials, projects };
}
