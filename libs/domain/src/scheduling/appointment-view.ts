import { activeMemberIds, type AppointmentRecord, type AppointmentValues, type Db, contactExists, findAppointment, projectExists } from '@workcell/db';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { Versioned } from '../kernel/versioned.js';
import { assertAllFound, assertIdList, validationError } from '../roles/permission-model.js';
import type { Subject } from './subject.js';
import { instantOf, localTimeAt } from './zones.js';

/** An appointment as the registry's Appointment. */
export type AppointmentView = BaseView & {
  readonly memberId: string;
  readonly title: string;
  readonly description: string | null;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly allDay: boolean;
  readonly timeZone: string;
  readonly location: string | null;
  readonly attendeeMemberIds: string[];
  readonly contactId: string | null;
  readonly projectId: string | null;
  readonly visibility: 'default' | 'private';
  readonly version: string;
};

export function appointmentView(row: AppointmentRecord): AppointmentView {
  return withBaseFields(row, {
    memberId: row.memberId,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    allDay: row.allDay,
    timeZone: row.timeZone,
    location: row.location,
    attendeeMemberIds: row.attendeeMemberIds,
    contactId: row.contactId,
    projectId: row.projectId,
    visibility: row.isPrivate ? 'private' : 'default',
    version: versionOf(row.revision),
  });
}

/** What others see of a private appointment (delegates, events): that the time is taken, nothing of what it is. */
export function redactedAppointmentView(row: AppointmentRecord): AppointmentView {
  const view = appointmentView(row);
  return row.isPrivate ? { ...view, title: 'Private', description: null, location: null, attendeeMemberIds: [], contactId: null, projectId: null } : view;
}

export const viewFor = (subject: Subject) => (subject.delegated ? redactedAppointmentView : appointmentView);

export const versionedAppointment = (subject: Subject, row: AppointmentRecord): Versioned<AppointmentView> => ({ resource: viewFor(subject)(row), revision: row.revision });

export const appointmentNotFound = () => new DomainError('not_found', 'appointment not found');

export async function findAppointmentOr404(client: Db, workspaceId: string, subject: Subject, id: string): Promise<AppointmentRecord> {
  const row = isUuid(id) ? await findAppointment(client, workspaceId, subject.memberId, id.toLowerCase()) : null;
  if (!row) throw appointmentNotFound();
  return row;
}

/** Another member's private appointment is shown redacted and is not theirs to change. */
export function assertChangeable(subject: Subject, row: AppointmentRecord): void {
  if (subject.delegated && row.isPrivate) throw new DomainError('forbidden', "another member's private appointment cannot be changed");
}

/** The attributes as the body names them (an update's omitted ones are absent). */
export interface AppointmentFields {
  readonly title?: string | undefined;
  readonly description?: string | null | undefined;
  readonly startsAt?: string | undefined;
  readonly endsAt?: string | undefined;
  readonly allDay?: boolean | undefined;
  readonly timeZone?: string | undefined;
  readonly location?: string | null | undefined;
  readonly attendeeMemberIds?: string[] | undefined;
  readonly contactId?: string | null | undefined;
  readonly projectId?: string | null | undefined;
  readonly visibility?: 'default' | 'private' | undefined;
}

const DEFAULTS: AppointmentValues = {
  title: '',
  description: null,
  location: null,
  startsAt: new Date(0),
  endsAt: new Date(0),
  allDay: false,
  isPrivate: false,
  timeZone: 'UTC',
  attendeeMemberIds: [],
  contactId: null,
  projectId: null,
};

/** A local midnight of the zone (what an all-day appointment starts and ends at). */
function isLocalMidnight(zone: string, instant: number): boolean {
  const local = localTimeAt(zone, instant);
  return instantOf(zone, local) === instant;
}

/**
 * The stored values after applying `fields` to `current` (a create starts from the defaults), checked as a whole:
 * the end after the start, an all-day appointment on local midnights of its zone, attendees active members (each
 * once), the contact and project of the workspace. 400 with a pointer per problem; nothing is written.
 */
export async function appointmentValues(client: Db, workspaceId: string, current: AppointmentValues | null, fields: AppointmentFields): Promise<AppointmentValues> {
  const base = current ?? DEFAULTS;
  const values: AppointmentValues = {
    title: fields.title ?? base.title,
    description: fields.description === undefined ? base.description : fields.description,
    location: fields.location === undefined ? base.location : fields.location,
    startsAt: fields.startsAt === undefined ? base.startsAt : new Date(fields.startsAt),
    endsAt: fields.endsAt === undefined ? base.endsAt : new Date(fields.endsAt),
    allDay: fields.allDay ?? base.allDay,
    isPrivate: fields.visibility === undefined ? base.isPrivate : fields.visibility === 'private',
    timeZone: fields.timeZone ?? base.timeZone,
    attendeeMemberIds: fields.attendeeMemberIds === undefined ? base.attendeeMemberIds : fields.attendeeMemberIds.map((id) => id.toLowerCase()),
    contactId: fields.contactId === undefined ? base.contactId : (fields.contactId?.toLowerCase() ?? null),
    projectId: fields.projectId === undefined ? base.projectId : (fields.projectId?.toLowerCase() ?? null),
  };
  const issues: FieldIssue[] = [];
  if (values.endsAt.getTime() <= values.startsAt.getTime()) issues.push({ pointer: '/endsAt', message: 'must be after startsAt' });
  if (values.allDay) {
    if (!isLocalMidnight(values.timeZone, values.startsAt.getTime())) issues.push({ pointer: '/startsAt', message: `an all-day appointment starts at a local midnight of ${values.timeZone}` });
    if (!isLocalMidnight(values.timeZone, values.endsAt.getTime()))
      issues.push({ pointer: '/endsAt', message: `an all-day appointment ends at a local midnight of ${values.timeZone} (exclusive: the day after its last day)` });
  }
  if (values.contactId !== null && !(isUuid(values.contactId) && (await contactExists(client, workspaceId, values.contactId))))
    issues.push({ pointer: '/contactId', message: 'no such contact in this workspace' });
  if (values.projectId !== null && !(isUuid(values.projectId) && (await projectExists(client, workspaceId, values.projectId))))
    issues.push({ pointer: '/projectId', message: 'no such project in this workspace' });
  if (issues.length > 0) throw validationError('the appointment is not valid', issues);
  if (fields.attendeeMemberIds !== undefined) {
    assertIdList(values.attendeeMemberIds, '/attendeeMemberIds', 'member');
    assertAllFound(values.attendeeMemberIds, await activeMemberIds(client, workspaceId, values.attendeeMemberIds), '/attendeeMemberIds', 'member');
  }
  return values;
}
