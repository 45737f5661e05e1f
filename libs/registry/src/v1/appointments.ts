import { z } from 'zod';
import { baseFields, casPatchOf, LongText, Name, ResourceId, Timestamp, TimeZone, Version } from '../schemas/common.js';
import { memberCalendar } from './builders.js';

export const Appointment = z
  .object({
    ...baseFields,
    memberId: ResourceId.describe('Owner of the calendar entry.'),
    title: z.string(),
    description: z.string().nullable(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    allDay: z.boolean(),
    timeZone: TimeZone.describe('The IANA zone the appointment was made in; an all-day appointment starts and ends at its local midnights.'),
    location: z.string().nullable(),
    attendeeMemberIds: z.array(ResourceId),
    contactId: ResourceId.nullable(),
    projectId: ResourceId.nullable(),
    visibility: z.enum(['default', 'private']),
    version: Version,
  })
  .meta({
    id: 'Appointment',
    description:
      'An appointment in a member calendar: the instants [startsAt, endsAt) (end after start), kept with the IANA zone it was made in (default UTC). An all-day appointment starts and ends at local midnights of that zone (end exclusive: a one-day appointment ends at the next midnight). Appointments may overlap. A private appointment shows another member only that the time is taken: title "Private", no description, location, attendees, contact or project.',
  });

const appointmentFields = z.strictObject({
  title: Name,
  description: LongText.nullable().optional(),
  startsAt: Timestamp,
  endsAt: Timestamp,
  allDay: z.boolean().optional(),
  timeZone: TimeZone.optional(),
  location: z.string().max(500).nullable().optional(),
  attendeeMemberIds: z.array(ResourceId).max(200).optional(),
  contactId: ResourceId.nullable().optional(),
  projectId: ResourceId.nullable().optional(),
  visibility: z.enum(['default', 'private']).optional(),
});
export const AppointmentCreate = appointmentFields.meta({ id: 'AppointmentCreate', description: 'A new appointment.' });
export const AppointmentUpdate = casPatchOf(appointmentFields, 'AppointmentUpdate', 'Compare-and-set of appointment attributes.');

const window = { from: Timestamp.optional(), to: Timestamp.optional() };
const own =
  "The acting member's own calendar (the member behind a personal access token); a service account acts for no member and gets 403 `forbidden` (it uses the /v1/members/{id}/appointments routes).";
const delegated =
  "Acts on another member's calendar. Besides the delegated scope (which a personal token holds only when the member's roles hold the key): the member must be active (else 404), and a member caller must share an unarchived group with it or hold `members:write` (else 403 `forbidden`); a service account needs resource grants on `appointments` (PUT /v1/service-accounts/{id}/resource-grants): a grant on the appointment to read or change it (`write`), `resourceId: null` with `write` to create (else 403 `insufficient_grant` naming the grant). Another member's private appointments are listed redacted and cannot be changed (403 `forbidden`).";

export const appointmentOperations = memberCalendar('appointments', {
  singular: 'Appointment',
  resource: Appointment,
  window,
  listDescription: 'Lists the appointments overlapping [from, to) in creation order.',
  own: { read: 'appointments:read', write: 'appointments:write', description: own, create: AppointmentCreate, update: AppointmentUpdate },
  delegated: { read: 'appointments:delegated:read', write: 'appointments:delegated:write', description: delegated, create: AppointmentCreate, update: AppointmentUpdate },
});
