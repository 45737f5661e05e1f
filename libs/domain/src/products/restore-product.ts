import { restoreProcedure } from '../kernel/archival.js';
import { archivableProduct } from './view.js';

/** `POST /v1/products/{id}/restore`: clears `archived_at` (no change when not archived); writes `product.restored`. */
export const restoreProduct = restoreProcedure('restoreProduct', archivableProduct);
