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
    kind: z
      .string()
      .describe(
        'What happened: the target event’s name without its resource prefix, with hyphens (created, updated, archived, restored, completed, reopened, moved, timer-started, …), or commented, comment-edited, comment-deleted for its comments.',
      ),
    actorType: z
      .enum(['member', 'service-account', 'system'])
      .describe('Who made the change: the principal of the request; system for changes the platform made by itself (and for events recorded before actors were).'),
    actorId: ResourceId.nullable().describe('The member or service account id; null for system.'),
    summary: z.string().describe('A short human-readable description; never quotes a comment’s text.'),
    occurredAt: Timestamp,
  })
  .meta({ id: 'ActivityItem', description: 'One entry of a target activity stream.' });

export const activityOperations = [
  f.list('listActivity', '/v1/activity', {
    summary: 'List the activity of a contact, project or task',
    description:
      'The history of one target, oldest first, derived from the event log (the events the change feed serves): the target’s own events and its comments’ events. ' +
      'Needs activity:read and the read scope of `targetType` (contacts:read, projects:read or tasks:read): without it 403 `insufficient_scope` naming that scope; ' +
      'a service account also needs a resource grant that lets it read the target. A target that does not exist in the workspace (or that the caller may not read) is 404. ' +
      'Entries are limited to the events this credential could learn of through the change feed (e.g. timer entries need time-entries:read, comment entries comments:read).',
    scopes: ['activity:read'],
    anyOfScopes: TARGET_READ_SCOPES,
    dynamicScopes: 'target-resource',
    query: {
      targetType: TargetType,
      targetId: ResourceId,
      actorId: ResourceId.optional().describe('Only changes made by this member or service account.'),
      from: Timestamp.optional().describe('Only entries that occurred at or after this instant.'),
      to: Timestamp.optional().describe('Only entries that occurred before this instant.'),
    },
    item: ActivityItem,
  }),
] satisfies readonly OperationDefinition[];
