import { templateArchivalProcedure } from './archival.js';

/** `DELETE /v1/project-templates/{id}` (If-Match): sets archived_at (never deletes); an archived template is 409. Writes `project_template.archived`. */
export const archiveProjectTemplate = templateArchivalProcedure('archiveProjectTemplate', 'archived');
