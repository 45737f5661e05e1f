import { z } from 'zod';
import { loadProjectSharing } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { requireProjectAccess } from '../kernel/visibility.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ProjectSharingView, versionedSharing } from './sharing-view.js';

export const getProjectSharingInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/projects/{id}/sharing` (projects:sharing): the project's complete access-control list and its version. */
export const getProjectSharing = defineProcedure('getProjectSharing', getProjectSharingInput, async (op, { id }): Promise<Versioned<ProjectSharingView>> => {
  const { auth } = op;
  requireGrant(auth, 'project', id, 'read', 'project');
  const projectId = isUuid(id) ? id.toLowerCase() : null;
  const record = projectId === null ? null : await loadProjectSharing(op.database, auth.workspaceId, projectId);
  if (!record || projectId === null) throw new DomainError('not_found', 'project not found');
  await requireProjectAccess(op.database, auth, projectId, 'read', 'project');
  return versionedSharing(projectId, record);
});
