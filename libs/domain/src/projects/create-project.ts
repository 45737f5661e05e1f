import { z } from 'zod';
import { insertProject } from '@workcell/db';
import { ProjectCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertProjectReferences, projectChanges, type ProjectView, projectView } from './view.js';

export const createProjectInput = z.object({ ...ProjectCreate.shape }).strict();

/** `POST /v1/projects`: a new active project (revision 1); writes `project.created` in the same transaction. */
export const createProject = defineProcedure('createProject', createProjectInput, async (op, input): Promise<ProjectView> => {
  requireTypeGrant(op.auth, 'project', 'write', 'projects');
  const { auth } = op;
  const attributes = input;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    await assertProjectReferences(tx, workspaceId, attributes);
    const changes = projectChanges(attributes);
    const row = await insertProject(tx, workspaceId, { ...changes, name: attributes.name, tagIds: changes.tagIds ?? [] }, now);
    const view = projectView(row);
    await op.emit(tx, resourceEvent(op, { type: 'project', id: row.id, action: 'created', view: { ...view }, at: now, result: view }));
    return view;
  });
});
