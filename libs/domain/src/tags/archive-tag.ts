import { archiveProcedure } from '../kernel/archival.js';
import { archivableTag } from './view.js';

/**
 * `DELETE /v1/tags/{id}`: archives the tag (sets `archived_at`, never deletes; lists leave it out, get still
 * shows it). Archiving an archived tag changes nothing. Writes `tag.archived` in the same transaction.
 */
export const archiveTag = archiveProcedure('archiveTag', archivableTag);
