import { z } from 'zod';
import { archivableFields, Color, Name, patchOf } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const Tag = z.object({ ...archivableFields, name: z.string(), color: z.string().nullable() }).meta({ id: 'Tag', description: 'A tag.' });

const tagFields = z.strictObject({ name: Name, color: Color.nullable().optional() });
export const TagCreate = tagFields.meta({ id: 'TagCreate', description: 'A new tag.' });
export const TagUpdate = patchOf(tagFields, 'TagUpdate', 'Mutable tag attributes.');

export const tagOperations = [
  ...archivableCrud('tags', {
    singular: 'Tag',
    plural: 'Tags',
    path: '/v1/tags',
    read: ['tags:read'],
    write: ['tags:write'],
    resource: Tag,
    create: TagCreate,
    update: TagUpdate,
    updateConcurrency: 'none',
  }),
] satisfies readonly OperationDefinition[];
