import { z } from 'zod';
import { baseFields, ResourceId, TargetType, Timestamp } from '../schemas/common.js';
import { TARGET_READ_SCOPES } from '../scopes.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('comments');

export const Comment = z
  .object({
    ...baseFields,
    targetType: TargetType,
    targetId: ResourceId,
    body: z.string().describe('Plain text, stored and returned verbatim (markup is not interpreted).'),
    authorType: z.enum(['member', 'service-account']).describe('Who wrote it: the principal of the creating credential.'),
    authorId: ResourceId,
    editedAt: Timestamp.nullable().describe('When the body was last edited; null if never.'),
  })
  .meta({ id: 'Comment', description: 'A comment on a contact, project or task.' });

const CommentBody = z.string().min(1).max(10_000).describe('Plain text, 1 to 10,000 characters (UTF-16 code units: a character outside the Basic Multilingual Plane counts as two), kept verbatim.');
export const CommentCreate = z.strictObject({ targetType: TargetType, targetId: ResourceId, body: CommentBody }).meta({ id: 'CommentCreate', description: 'A new comment.' });
export const CommentUpdate = z.strictObject({ body: CommentBody }).meta({ id: 'CommentUpdate', description: 'New comment text.' });

const target = { anyOfScopes: TARGET_READ_SCOPES, dynamicScopes: 'target-resource' } as const;
/** The target rule every comment operation states (contract 5.3). */
const TARGET_SCOPE =
  'Also needs the read scope of the target’s type (contacts:read, projects:read or tasks:read): without it 403 `insufficient_scope` naming that scope. ' +
  'A service account also needs a resource grant that lets it read the target.';

export const commentOperations = [
  f.list('listComments', '/v1/comments', {
    ...target,
    description: `The comments of one target, oldest first. ${TARGET_SCOPE} A target that does not exist in the workspace (or that the caller may not read) is 404.`,
    scopes: ['comments:read'],
    query: { targetType: TargetType, targetId: ResourceId },
    item: Comment,
  }),
  f.create('createComment', '/v1/comments', {
    ...target,
    description:
      `A plain-text comment on a contact, project or task, written by the calling member or service account. ${TARGET_SCOPE} ` +
      'The target is a reference of the body: one that does not exist in the workspace, or is archived, is 400 with the pointer `/targetId`.',
    scopes: ['comments:write'],
    body: CommentCreate,
    data: Comment,
  }),
  f.get('getComment', '/v1/comments/{id}', {
    ...target,
    description: `One comment. ${TARGET_SCOPE} Deleted comments and other workspaces’ comments are 404.`,
    scopes: ['comments:read'],
    data: Comment,
  }),
  f.update('updateComment', '/v1/comments/{id}', {
    ...target,
    description: `Replaces the body and sets \`editedAt\`. Only the comment’s author may edit it (anyone else: 403 \`forbidden\`). ${TARGET_SCOPE} ` + 'No precondition: the last writer wins.',
    scopes: ['comments:write'],
    body: CommentUpdate,
    data: Comment,
  }),
  f.remove('deleteComment', '/v1/comments/{id}', {
    ...target,
    description:
      'Deletes the comment: it is 404 from then on and never listed again (its events stay in the target’s activity, without the text). ' +
      `Only its author may delete it, or a workspace administrator (a member holding roles:write and members:write), to moderate; anyone else: 403 \`forbidden\`. ${TARGET_SCOPE} ` +
      'No precondition.',
    scopes: ['comments:write'],
  }),
] satisfies readonly OperationDefinition[];
