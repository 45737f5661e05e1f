import { z } from 'zod';
import { baseFields, casPatchOf, LongText, Name, ResourceId, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('appointments');

export const Appointment = z
  .object({
    ...baseFields,
    memberId: ResourceId.describe('Owner of the calendar entry.'),
    title: z.string(),
    description: z.string().nullable(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    allDay: z.boolean(),
    location: z.string().nullable(),
    attendeeMemberIds: z.array(ResourceId),
    contactId: ResourceId.nullable(),
    projectId: ResourceId.nullable(),
    visibility: z.enum(['default', 'private']),
    version: Version,
  })
  .meta({ id: 'Appointment', description: 'An appointment in a member calendar.' });

const appointmentFields = z.strictObject({
  title: Name,
  description: LongText.nullable().optional(),
  startsAt: Timestamp,
  endsAt: Timestamp,
  allDay: z.boolean().optional(),
  location: z.string().max(500).nullable().optional(),
  attendeeMemberIds: z.array(ResourceId).max(200).optional(),
  contactId: ResourceId.nullable().optional(),
  projectId: ResourceId.nullable().optional(),
  visibility: z.enum(['default', 'private']).optional(),
});
export const AppointmentCreate = appointmentFields.meta({ id: 'AppointmentCreate', description: 'A new appointment.' });
export const AppointmentUpdate = casPatchOf(appointmentFields, 'AppointmentUpdate', 'Compare-and-set of appointment attributes.');

const window = { from: Timestamp.optional(), to: Timestamp.optional() };
const delegated = 'Acts on another member; sharing and product-permission checks apply.';

export const appointmentOperations = [
  // acting-user boundary
  f.list('listAppointments', '/v1/appointments', { scopes: ['appointments:read'], query: window, item: Appointment }),
  f.create('createAppointment', '/v1/appointments', {
    scopes: ['appointments:write'],
    body: AppointmentCreate,
    data: Appointment,
  }),
  f.get('getAppointment', '/v1/appointments/{id}', { scopes: ['appointments:read'], data: Appointment }),
  f.update('updateAppointment', '/v1/appointments/{id}', {
    scopes: ['appointments:write'],
    concurrency: 'cas',
    body: AppointmentUpdate,
    data: Appointment,
  }),
  f.remove('deleteAppointment', '/v1/appointments/{id}', { scopes: ['appointments:write'] }),
  // delegated: another member's calendar
  f.list('listMemberAppointments', '/v1/members/{id}/appointments', {
    description: delegated,
    scopes: ['appointments:delegated:read'],
    query: window,
    item: Appointment,
  }),
  f.create('createMemberAppointment', '/v1/members/{id}/appointments', {
    description: delegated,
    scopes: ['appointments:delegated:write'],
    body: AppointmentCreate,
    data: Appointment,
  }),
  f.update('updateMemberAppointment', '/v1/members/{id}/appointments/{appointmentId}', {
    description: delegated,
    scopes: ['appointments:delegated:write'],
    concurrency: 'cas',
    body: AppointmentUpdate,
    data: Appointment,
  }),
  f.remove('deleteMemberAppointment', '/v1/members/{id}/appointments/{appointmentId}', {
    description: delegated,
    scopes: ['appointments:delegated:write'],
  }),
] satisfies readonly OperationDefinition[];
