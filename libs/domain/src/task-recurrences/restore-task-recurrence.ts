import { restoreProcedure } from '../kernel/archival.js';
import { archivableTaskRecurrence } from './view.js';

/** `POST /v1/task-recurrences/{id}/restore`: clears `archived_at`; the worker resumes from the cursor. Writes `task_recurrence.restored`. */
export const restoreTaskRecurrence = restoreProcedure('restoreTaskRecurrence', archivableTaskRecurrence);
