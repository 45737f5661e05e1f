import { restoreProcedure } from '../kernel/archival.js';
import { archivableProductGroup } from './view.js';

/** `POST /v1/product-groups/{id}/restore`: clears `archived_at` (no change when not archived); writes `product_group.restored`. */
export const restoreProductGroup = restoreProcedure('restoreProductGroup', archivableProductGroup);
