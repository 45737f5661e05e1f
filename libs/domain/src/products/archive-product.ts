import { archiveProcedure } from '../kernel/archival.js';
import { archivableProduct } from './view.js';

/** `DELETE /v1/products/{id}`: archives (sets `archived_at`, never deletes); again changes nothing. Writes `product.archived`. */
export const archiveProduct = archiveProcedure('archiveProduct', archivableProduct);
