import { templateArchivalProcedure } from './archival.js';

/** `POST /v1/project-templates/{id}/restore` (If-Match): clears archived_at; an unarchived template is 409. Writes `project_template.restored`. */
export const restoreProjectTemplate = templateArchivalProcedure('restoreProjectTemplate', 'restored');
