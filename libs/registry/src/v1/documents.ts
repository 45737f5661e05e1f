import { z } from 'zod';
import { archivableFields, casPatchOf, Name, ResourceId, TargetType, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const DOCUMENT_MAX_CONTENT_CHARS = 1_000_000;

export const Document = z
  .object({
    ...archivableFields,
    title: z.string(),
    format: z.enum(['markdown', 'plain']),
    content: z.string(),
    sizeBytes: z.number().int().min(0),
    targetType: TargetType.nullable(),
    targetId: ResourceId.nullable(),
    version: Version,
  })
  .meta({ id: 'Document', description: 'A bounded text document.' });

const documentFields = z.strictObject({
  title: Name,
  format: z.enum(['markdown', 'plain']),
  content: z.string().max(DOCUMENT_MAX_CONTENT_CHARS),
});
export const DocumentCreate = documentFields
  .extend({ targetType: TargetType.nullable().optional(), targetId: ResourceId.nullable().optional() })
  .meta({ id: 'DocumentCreate', description: 'A new document, optionally attached to a contact, project or task.' });
export const DocumentUpdate = casPatchOf(documentFields, 'DocumentUpdate', 'Compare-and-set of document title, format and content.');

export const documentOperations = [
  ...archivableCrud('documents', {
    singular: 'Document',
    plural: 'Documents',
    path: '/v1/documents',
    read: ['documents:read'],
    write: ['documents:write'],
    resource: Document,
    create: DocumentCreate,
    update: DocumentUpdate,
    updateConcurrency: 'cas',
    filters: { targetType: TargetType.optional(), targetId: ResourceId.optional() },
  }),
] satisfies readonly OperationDefinition[];
