import type { Database } from './database.js';

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

export async function findWorkspace(database: Database, workspaceId: string): Promise<WorkspaceRecord | null> {
  return database.prisma.workspace.findUnique({
    where: { id: workspaceId },
    select: { id: true, name: true, region: true, cell: true, lockedAt: true, revision: true, createdAt: true, updatedAt: true },
  });
}
