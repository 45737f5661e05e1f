import { z } from 'zod';
import { archivableFields, casPatchOf, LongText, Money, Name, PriceInput, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const Product = z
  .object({
    ...archivableFields,
    name: z.string(),
    description: z.string().nullable(),
    sku: z.string().nullable(),
    unit: z.string(),
    salesPrice: Money.nullable(),
    purchasePrice: Money.nullable().optional().describe('Acquisition cost; omitted unless products:finance:read is held.'),
    productGroupId: ResourceId.nullable(),
    version: Version,
  })
  .meta({ id: 'Product', description: 'A catalog product.' });

const productFields = z.strictObject({
  name: Name,
  description: LongText.nullable().optional(),
  sku: z.string().max(100).nullable().optional(),
  unit: z.string().trim().min(1).max(50),
  salesPrice: PriceInput.nullable().optional(),
  purchasePrice: PriceInput.nullable().optional().describe('Needs products:finance:write.'),
  productGroupId: ResourceId.nullable().optional(),
});
export const ProductCreate = productFields.meta({ id: 'ProductCreate', description: 'A new product.' });
export const ProductUpdate = casPatchOf(productFields, 'ProductUpdate', 'Compare-and-set of product attributes.');

export const productOperations = [
  ...archivableCrud('products', {
    singular: 'Product',
    plural: 'Products',
    path: '/v1/products',
    read: ['products:read'],
    write: ['products:write'],
    readOverlay: ['products:finance:read'],
    writeOverlay: ['products:finance:write'],
    resource: Product,
    create: ProductCreate,
    update: ProductUpdate,
    updateConcurrency: 'cas',
    filters: { productGroupId: ResourceId.optional() },
  }),
] satisfies readonly OperationDefinition[];
