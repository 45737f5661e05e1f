import { restoreProcedure } from '../kernel/archival.js';
import { archivableList } from './view.js';

/**
 * `POST /v1/lists/{id}/restore`: clears `archived_at`. Restoring an unarchived list changes nothing. Writes
 * `list.restored` in the same transaction as the change.
 */
export const restoreList = restoreProcedure('restoreList', archivableList);
