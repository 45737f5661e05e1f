import { z } from 'zod';
import { ResourceId, Timestamp, TimeZone } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('availability');

export const Availability = z
  .object({
    memberId: ResourceId,
    from: Timestamp,
    to: Timestamp,
    timeZone: TimeZone,
    windows: z.array(
      z.object({
        startsAt: Timestamp,
        endsAt: Timestamp,
        availableMinutes: z.number().int().min(0),
        reasons: z.array(z.enum(['working-hours', 'appointment', 'absence', 'planned-work'])),
      }),
    ),
  })
  .meta({ id: 'Availability', description: 'Derived availability (working hours minus appointments, absences and planned work).' });

const range = {
  from: Timestamp,
  to: Timestamp,
  granularity: z.enum(['hour', 'day']).optional(),
};

export const availabilityOperations = [
  f.get('getAvailability', '/v1/availability', {
    summary: "Get the acting member's availability",
    scopes: ['availability:read'],
    query: range,
    data: Availability,
  }),
  f.get('getMemberAvailability', '/v1/members/{id}/availability', {
    summary: "Get another member's availability",
    description: 'Sharing and product-permission checks apply.',
    scopes: ['availability:delegated:read'],
    query: range,
    data: Availability,
  }),
] satisfies readonly OperationDefinition[];
