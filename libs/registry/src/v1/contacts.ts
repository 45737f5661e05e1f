import { z } from 'zod';
import { archivableFields, casPatchOf, Email, Name, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const PostalAddress = z
  .strictObject({
    line1: z.string().max(200),
    line2: z.string().max(200).nullable().optional(),
    postalCode: z.string().max(20),
    city: z.string().max(100),
    region: z.string().max(100).nullable().optional(),
    country: z
      .string()
      .max(2)
      .regex(/^[A-Z]{2}$/)
      .describe('ISO-3166-1 alpha-2.'),
  })
  .meta({ id: 'PostalAddress', description: 'A postal address.' });

export const Contact = z
  .object({
    ...archivableFields,
    kind: z.enum(['person', 'organization']),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    organizationId: ResourceId.nullable().describe('Organization contact of a person.'),
    contactGroupIds: z.array(ResourceId),
    address: PostalAddress.nullable(),
    version: Version,
  })
  .meta({ id: 'Contact', description: 'A person or organization contact.' });

const contactFields = z.strictObject({
  kind: z.enum(['person', 'organization']),
  name: Name,
  email: Email.nullable().optional(),
  phone: z.string().max(50).nullable().optional(),
  organizationId: ResourceId.nullable().optional(),
  contactGroupIds: z.array(ResourceId).max(100).optional(),
  address: PostalAddress.nullable().optional(),
});
export const ContactCreate = contactFields.meta({ id: 'ContactCreate', description: 'Attributes of a new contact.' });
export const ContactUpdate = casPatchOf(contactFields, 'ContactUpdate', 'Compare-and-set of contact attributes.');

export const contactOperations = [
  ...archivableCrud('contacts', {
    singular: 'Contact',
    plural: 'Contacts',
    path: '/v1/contacts',
    read: ['contacts:read'],
    write: ['contacts:write'],
    resource: Contact,
    create: ContactCreate,
    update: ContactUpdate,
    updateConcurrency: 'cas',
    filters: {
      kind: z.enum(['person', 'organization']).optional(),
      contactGroupId: ResourceId.optional(),
      q: z.string().min(1).max(200).optional().describe('Prefix match on name or email.'),
    },
  }),
] satisfies readonly OperationDefinition[];
