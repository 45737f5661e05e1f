import { restoreProcedure } from '../kernel/archival.js';
import { archivableContact } from './view.js';

/**
 * `POST /v1/contacts/{id}/restore`: clears `archived_at`. Restoring an unarchived contact changes nothing.
 * Writes `contact.restored` in the same transaction as the change.
 */
export const restoreContact = restoreProcedure('restoreContact', archivableContact);
