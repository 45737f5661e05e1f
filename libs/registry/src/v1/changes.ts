import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('changes');

export const Change = z
  .object({
    id: z.string().describe('Monotonic position in the feed.'),
    resourceType: z.string(),
    resourceId: ResourceId,
    action: z.enum(['created', 'updated', 'archived', 'restored', 'deleted']),
    occurredAt: Timestamp,
  })
  .meta({ id: 'Change', description: 'One entry of the durable change feed (fetch the resource for its state).' });

export const changeOperations = [
  f.list('listChanges', '/v1/changes', {
    summary: 'Read the durable change feed',
    description:
      'Cursor-based and durable: persist `meta.nextCursor` and resume from it. ' +
      'Entries are limited to resource types whose read scope the credential holds.',
    scopes: ['changes:read'],
    dynamicScopes: 'authorization-filtered',
    query: { types: z.string().regex(/^[a-z-]+(,[a-z-]+)*$/).optional().describe('Comma-separated resource types.') },
    item: Change,
  }),
] satisfies readonly OperationDefinition[];
