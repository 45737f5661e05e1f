import { z } from 'zod';
import { ResourceId, TargetType, Timestamp } from '../schemas/common.js';
import { TARGET_READ_SCOPES } from '../scopes.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('activity');

export const ActivityItem = z
  .object({
    id: ResourceId,
    targetType: TargetType,
    targetId: ResourceId,
    kind: z.string().describe('e.g. created, updated, commented, status-changed'),
    actorType: z.enum(['member', 'service-account', 'system']),
    actorId: ResourceId.nullable(),
    summary: z.string(),
    occurredAt: Timestamp,
  })
  .meta({ id: 'ActivityItem', description: 'One entry of a target activity stream.' });

export const activityOperations = [
  f.list('listActivity', '/v1/activity', {
    summary: 'List the activity of a contact, project or task',
    description: 'Needs activity:read and the read scope of `targetType` (contacts:read, projects:read or tasks:read).',
    scopes: ['activity:read'],
    anyOfScopes: TARGET_READ_SCOPES,
    dynamicScopes: 'target-resource',
    query: { targetType: TargetType, targetId: ResourceId },
    item: ActivityItem,
  }),
] satisfies readonly OperationDefinition[];
