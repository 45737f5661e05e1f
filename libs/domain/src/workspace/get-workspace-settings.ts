import { z } from 'zod';
import { loadWorkspaceSettings } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { versionedSettings, type WorkspaceSettingsView } from './settings-view.js';

export const getWorkspaceSettingsInput = z.object({}).strict();

/** `GET /v1/workspace/settings` (workspace-settings:read): the safe projection and its compare-and-set version. */
export const getWorkspaceSettings = defineProcedure('getWorkspaceSettings', getWorkspaceSettingsInput, async (op): Promise<Versioned<WorkspaceSettingsView>> => {
  const { auth } = op;
  const row = await loadWorkspaceSettings(op.database, auth.workspaceId);
  if (!row) throw new DomainError('not_found', 'workspace not found');
  return versionedSettings(row);
});
