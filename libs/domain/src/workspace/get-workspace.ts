import { z } from 'zod';
import { findWorkspace } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

export const getWorkspaceInput = z.object({}).strict();

export interface WorkspaceView {
  readonly id: string;
  readonly name: string;
  readonly region: string;
  readonly cell: string;
  readonly status: 'active' | 'locked';
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The caller's own workspace (v0: its team). */
export const getWorkspace = defineProcedure('getWorkspace', getWorkspaceInput, async (op): Promise<WorkspaceView> => {
  const { workspaceId } = op.auth;
  const workspace = await findWorkspace(op.database, workspaceId);
  if (!workspace) throw new DomainError('not_found', 'workspace not found');
  return {
    id: workspace.id,
    name: workspace.name,
    region: workspace.region,
    cell: workspace.cell,
    status: workspace.lockedAt ? 'locked' : 'active',
    revision: workspace.revision,
    createdAt: workspace.createdAt.toISOString(),
    updatedAt: workspace.updatedAt.toISOString(),
  };
});
