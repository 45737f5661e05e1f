import { z } from 'zod';
import { archivableFields, casPatchOf, Name, ResourceId, TargetType, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

/** The bound of a document's content, in characters (Unicode code points, as JSON Schema's maxLength and PostgreSQL count). */
export const DOCUMENT_MAX_CONTENT_CHARS = 1_000_000;

/**
 * The request body limit of createDocument and updateDocument: any content within the bound, sent as UTF-8 JSON
 * (at most 4 bytes a character, escapes such as `\n` 2), with room for the other fields. The server's 1 MiB would
 * refuse most non-ASCII documents long before their bound.
 */
export const DOCUMENT_MAX_BODY_BYTES = 4 * DOCUMENT_MAX_CONTENT_CHARS + 64 * 1024;

export const Document = z
  .object({
    ...archivableFields,
    title: z.string(),
    format: z.enum(['markdown', 'plain']),
    content: z.string(),
    sizeBytes: z.number().int().min(0).describe('The size of `content` in UTF-8, in bytes.'),
    targetType: TargetType.nullable(),
    targetId: ResourceId.nullable(),
    version: Version,
  })
  .meta({ id: 'Document', description: 'A bounded text document.' });

const TOO_LARGE = `longer content answers 413 \`payload_too_large\` (pointer \`/content\`) and writes nothing`;

/*
 * The bound is stated (maxLength) but not checked by this schema: content over it is not a malformed request (400)
 * but too large a payload, 413 like a body over the server's limit; the domain checks it (documents/view.ts).
 */
const documentFields = z.strictObject({
  title: Name,
  format: z.enum(['markdown', 'plain']),
  content: z.string().meta({
    maxLength: DOCUMENT_MAX_CONTENT_CHARS,
    description: `Stored and returned verbatim (markup is not interpreted). At most ${DOCUMENT_MAX_CONTENT_CHARS.toLocaleString('en-US')} characters (Unicode code points); ${TOO_LARGE}.`,
  }),
});
export const DocumentCreate = documentFields
  .extend({
    targetType: TargetType.nullable().optional().describe('Attaches the document to a target; goes with `targetId`.'),
    targetId: ResourceId.nullable().optional().describe('An unarchived contact, project or task of the workspace, of `targetType`.'),
  })
  .meta({ id: 'DocumentCreate', description: 'A new document, optionally attached to a contact, project or task.' });
export const DocumentUpdate = casPatchOf(documentFields, 'DocumentUpdate', 'Compare-and-set of document title, format and content.');

const BODY = `The request body may hold up to ${DOCUMENT_MAX_BODY_BYTES.toLocaleString('en-US')} bytes (other operations: 1 MiB), room for any content within the bound sent as UTF-8 JSON (characters outside ASCII unescaped, as RFC 8259 has them; \`\\u\` escapes take 6 bytes a character and can exceed it); a larger body answers 413 \`payload_too_large\` too.`;
const GRANTS =
  'A service account needs a read grant on the document (type `document`) to read it and a write grant to change, archive or restore it; a document it may not read answers 404 like a missing one.';

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
    filters: {
      targetType: TargetType.optional().describe('Only documents attached to a target of this type.'),
      targetId: ResourceId.optional().describe('Only documents attached to this target (an id that names nothing matches nothing).'),
    },
    writes: { extraErrors: [413], bodyLimit: DOCUMENT_MAX_BODY_BYTES },
    descriptions: {
      list: "The workspace's unarchived documents, oldest first. A document stays listed under its target when the target is archived later. A service account sees only the documents its resource grants cover.",
      create: [
        `A new document (version 1); \`sizeBytes\` is its content's UTF-8 size. Content holds at most ${DOCUMENT_MAX_CONTENT_CHARS.toLocaleString('en-US')} characters; ${TOO_LARGE}. ${BODY}`,
        "A target (`targetType` and `targetId`, both or neither) must be an unarchived contact, project or task of the workspace that the caller may read: one that does not exist, is archived, belongs to another workspace or is outside a service account's resource grants answers 400 `validation_failed` with the pointer `/targetId` (the same answer for each, so nothing is revealed). The target's own read scope is not needed: the document shows nothing of it but the id the caller sent. The target is fixed at creation; a target archived later keeps its documents, which stay readable, listed under it and changeable.",
        'A service account needs a write grant on every document (`resourceId: null`) to create one.',
      ].join('\n\n'),
      get: `One document of the workspace, archived or not. ${GRANTS}`,
      update: `Changes the title, format or content (not the target). Content holds at most ${DOCUMENT_MAX_CONTENT_CHARS.toLocaleString('en-US')} characters; ${TOO_LARGE}. ${BODY} ${GRANTS}`,
      archive: `Archives the document (never deletes it): it leaves the list and stays readable; archiving it again changes nothing. ${GRANTS}`,
      restore: `Restores an archived document; restoring one that is not archived changes nothing. ${GRANTS}`,
    },
  }),
] satisfies readonly OperationDefinition[];
