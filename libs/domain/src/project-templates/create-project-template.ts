import { z } from 'zod';
import { insertProjectTemplate } from '@workcell/db';
import { ProjectTemplateCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { blueprintRecords, templateEventPayload, type ProjectTemplateView, versionedProjectTemplate } from './view.js';

export const createProjectTemplateInput = z.object({ ...ProjectTemplateCreate.shape }).strict();

/** `POST /v1/project-templates`: a new template (revision 1). Writes `project_template.created` in the same transaction. */
export const createProjectTemplate = defineProcedure('createProjectTemplate', createProjectTemplateInput, async (op, input): Promise<Versioned<ProjectTemplateView>> => {
  requireTypeGrant(op.auth, 'project_template', 'write', 'project templates');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const row = await insertProjectTemplate(tx, workspaceId, { name: input.name, description: input.description ?? null, taskBlueprints: blueprintRecords(input.taskBlueprints ?? []) }, now);
    const result = versionedProjectTemplate(row);
    await op.emit(tx, resourceEvent(op, { type: 'project_template', id: row.id, action: 'created', view: templateEventPayload(result.resource), at: now, result }));
    return result;
  });
});
