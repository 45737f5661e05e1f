import { restoreProcedure } from '../kernel/archival.js';
import { archivableTag } from './view.js';

/**
 * `POST /v1/tags/{id}/restore`: clears `archived_at`. Restoring an unarchived tag changes nothing. Writes
 * `tag.restored` in the same transaction as the change.
 */
export const restoreTag = restoreProcedure('restoreTag', archivableTag);
