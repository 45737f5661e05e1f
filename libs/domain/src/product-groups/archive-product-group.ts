import { archiveProcedure } from '../kernel/archival.js';
import { archivableProductGroup } from './view.js';

/**
 * `DELETE /v1/product-groups/{id}`: archives the group (sets `archived_at`, never deletes; its child groups
 * and its products keep pointing at it). Archiving an archived group changes nothing. Writes
 * `product_group.archived` in the same transaction as the change.
 */
export const archiveProductGroup = archiveProcedure('archiveProductGroup', archivableProductGroup);
