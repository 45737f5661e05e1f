import { archiveProcedure } from '../kernel/archival.js';
import { archivableContactGroup } from './view.js';

/**
 * `DELETE /v1/contact-groups/{id}`: archives the group (sets `archived_at`, never deletes; its children and
 * member links stay). Archiving an archived group changes nothing. Writes `contact_group.archived` in the
 * same transaction as the change.
 */
export const archiveContactGroup = archiveProcedure('archiveContactGroup', archivableContactGroup);
