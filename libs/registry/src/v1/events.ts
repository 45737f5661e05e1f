import { z } from 'zod';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('events');

export const EventCatalog = z
  .object({
    eventTypes: z.array(z.object({ name: z.string(), description: z.string(), resourceType: z.string(), requiredScopes: z.array(z.string()) })),
    channels: z.array(z.object({ name: z.string(), transport: z.enum(['webhook', 'change-feed']), description: z.string() })),
  })
  .meta({ id: 'EventCatalog', description: 'Event types and channels visible to the credential.' });

export const eventOperations = [
  f.get('getEventCatalog', '/v1/event-catalog', {
    summary: 'Get the event and channel catalog',
    description: 'Authorization-filtered: only event types whose required scopes the credential holds are listed.',
    scopes: ['events:read'],
    dynamicScopes: 'authorization-filtered',
    data: EventCatalog,
  }),
] satisfies readonly OperationDefinition[];
