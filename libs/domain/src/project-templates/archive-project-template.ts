import { z } from 'zod';
import { setProjectTemplateArchivedIfRevision } from '@workcell/db';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ProjectTemplateView, writeProjectTemplate } from './view.js';

export const archiveProjectTemplateInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/** `DELETE /v1/project-templates/{id}` (If-Match): sets archived_at (never deletes); an archived template is 409. Writes `project_template.archived`. */
export const archiveProjectTemplate = defineProcedure('archiveProjectTemplate', archiveProjectTemplateInput, (op, { id, expectedRevision }): Promise<Versioned<ProjectTemplateView>> =>
  writeProjectTemplate(op, {
    id,
    event: 'project_template.archived',
    stateConflict: 'is already archived',
    write: (tx, workspaceId, templateId, now) => setProjectTemplateArchivedIfRevision(tx, workspaceId, templateId, expectedRevision, now, now),
  }),
);
