import { z } from 'zod';
import { defineProcedure } from '../kernel/procedure.js';

import { EVENT_CHANNELS } from './catalog.js';
import { receivableSpecs } from './receivable.js';

export const getEventCatalogInput = z.object({}).strict();

export interface EventCatalogView {
  readonly eventTypes: { name: string; description: string; resourceType: string; requiredScopes: string[] }[];
  readonly channels: { name: string; transport: 'webhook' | 'change-feed'; description: string }[];
}

/**
 * `GET /v1/event-catalog`, authorization-filtered: the event types reaching a v1 channel (change feed or
 * webhooks) that this credential could receive (every required scope held; a service account also needs a
 * grant on the resource type), and the v1 channels whose scope it holds. Payload rules (a budget statement's
 * events need project-statements:finance:read) are per event and named in the description.
 */
export const getEventCatalog = defineProcedure('getEventCatalog', getEventCatalogInput, async (op): Promise<EventCatalogView> => {
  const { auth } = op;
  const held = new Set(auth.effectiveScopes);
  return {
    eventTypes: receivableSpecs(auth, ['changes', 'webhooks']).map((spec) => ({
      name: spec.type,
      description: spec.description,
      resourceType: spec.resourceType,
      requiredScopes: [...spec.readScopes],
    })),
    channels: EVENT_CHANNELS.filter((c) => c.scope !== null && held.has(c.scope)).map((c) => ({ name: c.name, transport: c.transport, description: c.description })),
  };
});
