import { z } from 'zod';
import { archivableFields, casPatchOf, Name, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const ContactGroup = z
  .object({
    ...archivableFields,
    name: z.string(),
    parentId: ResourceId.nullable(),
    ancestorIds: z.array(ResourceId).describe('Root first.'),
    version: Version,
  })
  .meta({ id: 'ContactGroup', description: 'A hierarchical contact group.' });

const contactGroupFields = z.strictObject({ name: Name, parentId: ResourceId.nullable().optional() });
export const ContactGroupCreate = contactGroupFields.meta({ id: 'ContactGroupCreate', description: 'A new contact group.' });
export const ContactGroupUpdate = casPatchOf(contactGroupFields, 'ContactGroupUpdate', 'Compare-and-set of a contact group; re-parenting that would create a cycle is rejected.');

export const contactGroupOperations = [
  ...archivableCrud('contact-groups', {
    singular: 'ContactGroup',
    plural: 'ContactGroups',
    path: '/v1/contact-groups',
    read: ['contact-groups:read'],
    write: ['contact-groups:write'],
    resource: ContactGroup,
    create: ContactGroupCreate,
    update: ContactGroupUpdate,
    updateConcurrency: 'cas',
    filters: { parentId: ResourceId.optional() },
  }),
] satisfies readonly OperationDefinition[];
