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
  timeZone: TimeZone.optional(),
};
const derived =
  'Computed at request time, never stored: working time (Monday to Friday, 09:00-17:00 in the requested zone, default the workspace time zone) minus approved absences (half days end or start at 13:00) minus appointments the member owns or attends and planned work. [from, to) is at most 62 days (400 otherwise); each window is one hour or one local day (default day) with its available minutes and the reasons minutes were unavailable.';

export const availabilityOperations = [
  f.get('getAvailability', '/v1/availability', {
    summary: "Get the acting member's availability",
    description: `${derived} A service account acts for no member: 403 \`forbidden\` (it uses /v1/members/{id}/availability).`,
    scopes: ['availability:read'],
    query: range,
    data: Availability,
  }),
  f.get('getMemberAvailability', '/v1/members/{id}/availability', {
    summary: "Get another member's availability",
    description: `${derived} The member must be active (else 404); a member caller must share an unarchived group with it or hold \`members:write\` (else 403 \`forbidden\`); a service account needs read grants with \`resourceId: null\` on \`appointments\` and \`absences\` (PUT /v1/service-accounts/{id}/resource-grants; else 403 \`insufficient_grant\` naming the missing ones).`,
    scopes: ['availability:delegated:read'],
    query: range,
    data: Availability,
  }),
] satisfies readonly OperationDefinition[];
