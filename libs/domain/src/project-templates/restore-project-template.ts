import { z } from 'zod';
import { setProjectTemplateArchivedIfRevision } from '@workcell/db';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ProjectTemplateView, writeProjectTemplate } from './view.js';

export const restoreProjectTemplateInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/** `POST /v1/project-templates/{id}/restore` (If-Match): clears archived_at; an unarchived template is 409. Writes `project_template.restored`. */
export const restoreProjectTemplate = defineProcedure('restoreProjectTemplate', restoreProjectTemplateInput, (op, { id, expectedRevision }): Promise<Versioned<ProjectTemplateView>> =>
  writeProjectTemplate(op, {
    id,
    event: 'project_template.restored',
    stateConflict: 'is not archived',
    write: (tx, workspaceId, templateId, now) => setProjectTemplateArchivedIfRevision(tx, workspaceId, templateId, expectedRevision, null, now),
  }),
);
