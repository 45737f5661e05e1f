import { archiveProcedure } from '../kernel/archival.js';
import { archivableTaskRecurrence } from './view.js';

/** `DELETE /v1/task-recurrences/{id}`: archives the series (it materialises nothing more; its tasks stay). Writes `task_recurrence.archived`. */
export const archiveTaskRecurrence = archiveProcedure('archiveTaskRecurrence', archivableTaskRecurrence);
