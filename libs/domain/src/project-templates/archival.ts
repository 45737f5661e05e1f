import { z } from 'zod';
import { setProjectTemplateArchivedIfRevision } from '@workcell/db';
import { expectedRevisionInput } from '../kernel/if-match.js';
import { defineProcedure, type Procedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ProjectTemplateView, writeProjectTemplate } from './view.js';

const archivalInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/**
 * Archive (`DELETE`) or restore (`POST …/restore`) of a project template under If-Match: sets or clears archived_at
 * (never deletes); a template already in that state is 409. Writes `project_template.archived` / `.restored`.
 */
export function templateArchivalProcedure(name: string, to: 'archived' | 'restored'): Procedure<typeof archivalInput, Versioned<ProjectTemplateView>> {
  return defineProcedure(name, archivalInput, (op, { id, expectedRevision }) =>
    writeProjectTemplate(op, {
      id,
      event: `project_template.${to}`,
      stateConflict: to === 'archived' ? 'is already archived' : 'is not archived',
      write: (tx, workspaceId, templateId, now) => setProjectTemplateArchivedIfRevision(tx, workspaceId, templateId, expectedRevision, to === 'archived' ? now : null, now),
    }),
  );
}
