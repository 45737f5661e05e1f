import { z } from 'zod';
import { archivableFields, casPatchOf, Name, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const ProductGroup = z
  .object({
    ...archivableFields,
    name: z.string(),
    parentId: ResourceId.nullable(),
    ancestorIds: z.array(ResourceId),
    version: Version,
  })
  .meta({ id: 'ProductGroup', description: 'A hierarchical product group.' });

const productGroupFields = z.strictObject({ name: Name, parentId: ResourceId.nullable().optional() });
export const ProductGroupCreate = productGroupFields.meta({ id: 'ProductGroupCreate', description: 'A new product group.' });
export const ProductGroupUpdate = casPatchOf(productGroupFields, 'ProductGroupUpdate', 'Compare-and-set of a product group; re-parenting that would create a cycle is rejected.');

export const productGroupOperations = [
  ...archivableCrud('product-groups', {
    singular: 'ProductGroup',
    plural: 'ProductGroups',
    path: '/v1/product-groups',
    read: ['product-groups:read'],
    write: ['product-groups:write'],
    resource: ProductGroup,
    create: ProductGroupCreate,
    update: ProductGroupUpdate,
    updateConcurrency: 'cas',
    filters: { parentId: ResourceId.optional() },
  }),
] satisfies readonly OperationDefinition[];
