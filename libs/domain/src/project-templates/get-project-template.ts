import { z } from 'zod';
import { findProjectTemplate } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ProjectTemplateView, templateId, versionedProjectTemplate } from './view.js';

export const getProjectTemplateInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/project-templates/{id}`: one template of the caller's workspace, archived or not (another workspace's: 404). */
export const getProjectTemplate = defineProcedure('getProjectTemplate', getProjectTemplateInput, async (op, { id: rawId }): Promise<Versioned<ProjectTemplateView>> => {
  const { auth } = op;
  const row = await findProjectTemplate(op.database, auth.workspaceId, templateId(auth, rawId, 'read'));
  if (!row) throw new DomainError('not_found', 'project template not found');
  return versionedProjectTemplate(row);
});
