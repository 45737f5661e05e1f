import { archiveProcedure } from '../kernel/archival.js';
import { archivableContact } from './view.js';

/**
 * `DELETE /v1/contacts/{id}`: archives the contact (sets `archived_at`, never deletes; lists leave it out,
 * get still shows it). Archiving an archived contact changes nothing. Writes `contact.archived` in the same
 * transaction as the change.
 */
export const archiveContact = archiveProcedure('archiveContact', archivableContact);
