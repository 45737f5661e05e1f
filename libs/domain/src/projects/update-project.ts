import { z } from 'zod';
import { findProject, updateProjectIfRevision } from '@workcell/db';
import { ProjectUpdate } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { expectedRevisionInput, ifMatchFailure } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { requireProjectAccess } from '../kernel/visibility.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertProjectReferences, projectChanges, type ProjectView, projectView } from './view.js';

export const updateProjectInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput, ...ProjectUpdate.shape }).strict();

/**
 * `PATCH /v1/projects/{id}` (If-Match): the sent attributes only. The revision check and the write are one
 * statement (stale: 412); an archived project is read-only (409). Writes `project.updated` in the same transaction.
 */
export const updateProject = defineProcedure('updateProject', updateProjectInput, async (op, input): Promise<ProjectView> => {
  requireGrant(op.auth, 'project', input.id, 'write', 'project');
  const { auth } = op;
  const { id: rawId, expectedRevision, ...attributes } = input;
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'project not found');
  const id = rawId.toLowerCase();
  const changes = projectChanges(attributes);
  if (Object.keys(changes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: 'Send at least one attribute.' }]);
  const now = op.now();
  return op.transaction(async (tx) => {
    await requireProjectAccess(tx, auth, id, 'write', 'project');
    await assertProjectReferences(tx, workspaceId, attributes);
    const outcome = await updateProjectIfRevision(tx, workspaceId, id, expectedRevision, changes, now);
    if (outcome !== 'updated') throw ifMatchFailure(outcome, 'project', 'is archived; restore it before changing it');
    const view = projectView((await findProject(tx, workspaceId, id))!);
    await op.emit(tx, resourceEvent(op, { type: 'project', id, action: 'updated', view: { ...view }, changed: Object.keys(attributes), at: now }));
    return view;
  });
});
