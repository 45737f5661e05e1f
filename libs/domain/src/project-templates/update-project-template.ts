import { z } from 'zod';
import { updateProjectTemplateIfRevision } from '@workcell/db';
import { ProjectTemplateUpdate } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { blueprintRecords, type ProjectTemplateView, writeProjectTemplate } from './view.js';

export const updateProjectTemplateInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput, ...ProjectTemplateUpdate.shape }).strict();

/**
 * `PATCH /v1/project-templates/{id}` (If-Match): the sent attributes only; `taskBlueprints` replaces the whole
 * skeleton. Stale revision 412, archived template 409. Writes `project_template.updated` in the same transaction.
 */
export const updateProjectTemplate = defineProcedure('updateProjectTemplate', updateProjectTemplateInput, async (op, input): Promise<Versioned<ProjectTemplateView>> => {
  const { id, expectedRevision, ...attributes } = input;
  const changes = {
    ...(attributes.name === undefined ? {} : { name: attributes.name }),
    ...(attributes.description === undefined ? {} : { description: attributes.description }),
    ...(attributes.taskBlueprints === undefined ? {} : { taskBlueprints: blueprintRecords(attributes.taskBlueprints) }),
  };
  if (Object.keys(changes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: 'Send at least one attribute.' }]);
  return writeProjectTemplate(op, {
    id,
    event: 'project_template.updated',
    stateConflict: 'is archived; restore it before changing it',
    changed: Object.keys(changes),
    write: (tx, workspaceId, templateId, now) => updateProjectTemplateIfRevision(tx, workspaceId, templateId, expectedRevision, changes, now),
  });
});
