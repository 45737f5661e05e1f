import { z } from 'zod';
import { archivableFields, patchOf, ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const CallNote = z
  .object({
    ...archivableFields,
    contactId: ResourceId,
    authorId: ResourceId,
    content: z.string().describe('Plain text.'),
    occurredAt: Timestamp,
  })
  .meta({ id: 'CallNote', description: 'A plain-text call note about a contact.' });

const callNoteFields = z.strictObject({
  contactId: ResourceId,
  content: z.string().min(1).max(20_000).describe('Plain text; markup is not interpreted.'),
  occurredAt: Timestamp.optional().describe('Defaults to the time of creation.'),
});
export const CallNoteCreate = callNoteFields.meta({ id: 'CallNoteCreate', description: 'A new call note.' });
export const CallNoteUpdate = patchOf(callNoteFields.omit({ contactId: true }), 'CallNoteUpdate', 'Mutable call-note attributes.');

export const callNoteOperations = [
  ...archivableCrud('call-notes', {
    singular: 'CallNote',
    plural: 'CallNotes',
    path: '/v1/call-notes',
    read: ['call-notes:read'],
    write: ['call-notes:write'],
    resource: CallNote,
    create: CallNoteCreate,
    update: CallNoteUpdate,
    updateConcurrency: 'none',
    filters: { contactId: ResourceId.optional() },
  }),
] satisfies readonly OperationDefinition[];
