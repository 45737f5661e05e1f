import { z } from 'zod';
import { findProject } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';

import { viewerOf } from '../kernel/visibility.js';
import { type ProjectView, projectView } from './view.js';

export const getProjectInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/projects/{id}`: one project of the workspace (archived ones too); another workspace's is 404. */
export const getProject = defineProcedure('getProject', getProjectInput, async (op, { id }): Promise<ProjectView> => {
  const { auth } = op;
  requireGrant(auth, 'project', id, 'read', 'project');
  const row = isUuid(id) ? await findProject(op.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw new DomainError('not_found', 'project not found');
  return projectView(row);
});
