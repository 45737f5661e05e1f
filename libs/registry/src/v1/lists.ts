import { z } from 'zod';
import { archivableFields, Color, Name, patchOf } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const ListKind = z.enum(['projects', 'tasks']);

export const List = z
  .object({
    ...archivableFields,
    name: z.string(),
    kind: ListKind.describe('Whether the list groups projects or tasks.'),
    position: z.number().int(),
    color: z.string().nullable(),
  })
  .meta({ id: 'List', description: 'A project or task list.' });

const listFields = z.strictObject({
  name: Name,
  kind: ListKind,
  position: z.number().int().min(0).max(2_147_483_647).optional(),
  color: Color.nullable().optional(),
});
export const ListCreate = listFields.meta({ id: 'ListCreate', description: 'A new list.' });
export const ListUpdate = patchOf(listFields.omit({ kind: true }), 'ListUpdate', 'Mutable list attributes.');

export const listOperations = [
  ...archivableCrud('lists', {
    singular: 'List',
    plural: 'Lists',
    path: '/v1/lists',
    read: ['lists:read'],
    write: ['lists:write'],
    resource: List,
    create: ListCreate,
    update: ListUpdate,
    updateConcurrency: 'none',
    filters: { kind: ListKind.optional() },
  }),
] satisfies readonly OperationDefinition[];
