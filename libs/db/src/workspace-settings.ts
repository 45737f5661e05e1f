import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * The workspace settings row (one per workspace, created on first write; until then the column defaults are
 * the settings, at revision 1) and the workspace name, which the settings projection includes.
 */

export interface WorkspaceSettingsRecord {
  readonly name: string;
  readonly locale: string;
  readonly timezone: string;
  readonly currency: string;
  readonly weekStartDay: number;
  readonly dateFormat: string;
  readonly revision: number;
  readonly updatedAt: Date;
}

/** Settings of an existing workspace (null when there is none). */
export async function loadWorkspaceSettings(client: Db, workspaceId: string): Promise<WorkspaceSettingsRecord | null> {
  const workspace = await client.prisma.workspace.findUnique({
    where: { id: workspaceId },
    select: { name: true, createdAt: true, settings: { select: { locale: true, timezone: true, currency: true, weekStartDay: true, dateFormat: true, revision: true, updatedAt: true } } },
  });
  if (!workspace) return null;
  const settings = workspace.settings ?? { locale: 'en', timezone: 'UTC', currency: 'EUR', weekStartDay: 1, dateFormat: 'YYYY-MM-DD', revision: 1, updatedAt: workspace.createdAt };
  return { name: workspace.name, ...settings };
}

export interface WorkspaceSettingsChanges {
  readonly name?: string;
  readonly locale?: string;
  readonly timezone?: string;
  readonly currency?: string;
  readonly weekStartDay?: number;
  readonly dateFormat?: string;
}

/** Applies the changes if the settings are still at `expectedRevision` (one compare-and-set statement). */
export async function updateWorkspaceSettingsIfRevision(tx: Db, workspaceId: string, expectedRevision: number, change: WorkspaceSettingsChanges): Promise<CasOutcome> {
  // The row exists from the first write on; creating it at revision 1 keeps "1" the version of the defaults.
  await tx.prisma.$executeRaw`INSERT INTO workspace_settings (workspace_id) SELECT id FROM workspaces WHERE id = ${workspaceId}::uuid ON CONFLICT (workspace_id) DO NOTHING`;
  const { name, ...settings } = change;
  const { count } = await tx.prisma.workspaceSettings.updateMany({ where: { workspaceId, revision: expectedRevision }, data: { ...settings, revision: { increment: 1 } } });
  if (count !== 1) return (await tx.prisma.workspace.count({ where: { id: workspaceId } })) === 0 ? 'not_found' : 'version_conflict';
  if (name !== undefined) await tx.prisma.workspace.update({ where: { id: workspaceId }, data: { name, revision: { increment: 1 } } });
  return 'updated';
}
