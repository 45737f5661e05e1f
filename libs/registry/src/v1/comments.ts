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
    body: z.string(),
    authorType: z.enum(['member', 'service-account']),
    authorId: ResourceId,
    editedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Comment', description: 'A comment on a contact, project or task.' });

const CommentBody = z.string().min(1).max(10_000);
export const CommentCreate = z
  .strictObject({ targetType: TargetType, targetId: ResourceId, body: CommentBody })
  .meta({ id: 'CommentCreate', description: 'A new comment.' });
export const CommentUpdate = z
  .strictObject({ body: CommentBody })
  .meta({ id: 'CommentUpdate', description: 'New comment text.' });

const target = {
  anyOfScopes: TARGET_READ_SCOPES,
  dynamicScopes: 'target-resource',
  description: 'Also needs the read scope of the target (contacts:read, projects:read or tasks:read).',
} as const;

export const commentOperations = [
  f.list('listComments', '/v1/comments', {
    ...target,
    scopes: ['comments:read'],
    query: { targetType: TargetType, targetId: ResourceId },
    item: Comment,
  }),
  f.create('createComment', '/v1/comments', { ...target, scopes: ['comments:write'], body: CommentCreate, data: Comment }),
  f.get('getComment', '/v1/comments/{id}', { ...target, scopes: ['comments:read'], data: Comment }),
  f.update('updateComment', '/v1/comments/{id}', { ...target, scopes: ['comments:write'], body: CommentUpdate, data: Comment }),
  f.remove('deleteComment', '/v1/comments/{id}', { ...target, scopes: ['comments:write'] }),
] satisfies readonly OperationDefinition[];
