import type { Prisma } from './generated/prisma/client.js';
import type { AbsenceKind, AbsenceStatus } from './generated/prisma/enums.js';
import { pageIds } from './keyset.js';
import { setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * Appointments and absences of members (docs/scheduling.md). Every query names the workspace and the member whose
 * calendar it reads or writes, so a row of another member answers like a missing one. Delete archives
 * (`archived_at`): an archived row is gone for every read. Compare-and-set is in the UPDATE itself.
 */

export type AbsenceKindValue = AbsenceKind;
export type AbsenceStatusValue = AbsenceStatus;

const appointmentSelect = {
  id: true,
  memberId: true,
  title: true,
  description: true,
  location: true,
  startsAt: true,
  endsAt: true,
  allDay: true,
  isPrivate: true,
  timeZone: true,
  attendeeMemberIds: true,
  contactId: true,
  projectId: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.AppointmentSelect;

export type AppointmentRecord = Readonly<Prisma.AppointmentGetPayload<{ select: typeof appointmentSelect }>>;

export interface AppointmentValues {
  readonly title: string;
  readonly description: string | null;
  readonly location: string | null;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly allDay: boolean;
  readonly isPrivate: boolean;
  readonly timeZone: string;
  readonly attendeeMemberIds: string[];
  readonly contactId: string | null;
  readonly projectId: string | null;
}

/** A time window: rows overlapping [from, to) (either end open). */
export interface InstantWindow {
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

export async function findAppointment(client: Db, workspaceId: string, memberId: string, id: string): Promise<AppointmentRecord | null> {
  return client.prisma.appointment.findFirst({ where: { workspaceId, memberId, id, archivedAt: null }, select: appointmentSelect });
}

/** One keyset page (id order) of a member's live appointments overlapping the window. */
export async function listAppointmentsPage(
  client: Db,
  workspaceId: string,
  memberId: string,
  filter: InstantWindow & { onlyIds?: readonly string[] | null },
  afterId: string | undefined,
  take: number,
): Promise<AppointmentRecord[]> {
  return client.prisma.appointment.findMany({
    where: {
      workspaceId,
      memberId,
      archivedAt: null,
      ...(filter.to === undefined ? {} : { startsAt: { lt: filter.to } }),
      ...(filter.from === undefined ? {} : { endsAt: { gt: filter.from } }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select: appointmentSelect,
  });
}

export async function insertAppointment(tx: Db, workspaceId: string, memberId: string, values: AppointmentValues): Promise<AppointmentRecord> {
  return tx.prisma.appointment.create({ data: { ...values, workspaceId, memberId }, select: appointmentSelect });
}

/** Compare-and-set of a member's live appointment: `UPDATE … WHERE revision = $expected`; a miss is told apart by a count. */
export function updateAppointmentIfRevision(tx: Db, workspaceId: string, memberId: string, id: string, expectedRevision: number, values: AppointmentValues): Promise<CasOutcome> {
  return updateIfRevision(tx.prisma.appointment, workspaceId, id, expectedRevision, values, { memberId, archivedAt: null });
}

/** Archives a member's live appointment; false when there is none. */
export function archiveAppointment(tx: Db, workspaceId: string, memberId: string, id: string, now: Date): Promise<boolean> {
  return setArchivedAt(tx.prisma.appointment, workspaceId, id, now, { memberId });
}

const absenceSelect = {
  id: true,
  memberId: true,
  kind: true,
  startsOn: true,
  endsOn: true,
  halfDayStart: true,
  halfDayEnd: true,
  note: true,
  status: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.AbsenceSelect;

export type AbsenceRecord = Readonly<Prisma.AbsenceGetPayload<{ select: typeof absenceSelect }>>;

export interface AbsenceValues {
  readonly kind: AbsenceKindValue;
  readonly startsOn: Date;
  readonly endsOn: Date;
  readonly halfDayStart: boolean;
  readonly halfDayEnd: boolean;
  readonly note: string | null;
  readonly status: AbsenceStatusValue;
}

export async function findAbsence(client: Db, workspaceId: string, memberId: string, id: string): Promise<AbsenceRecord | null> {
  return client.prisma.absence.findFirst({ where: { workspaceId, memberId, id, archivedAt: null }, select: absenceSelect });
}

/** One keyset page (id order) of a member's live absences overlapping [from, to) (dates), optionally of one status. */
export async function listAbsencesPage(
  client: Db,
  workspaceId: string,
  memberId: string,
  filter: InstantWindow & { status?: AbsenceStatusValue | undefined; onlyIds?: readonly string[] | null },
  afterId: string | undefined,
  take: number,
): Promise<AbsenceRecord[]> {
  return client.prisma.absence.findMany({
    where: {
      workspaceId,
      memberId,
      archivedAt: null,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.to === undefined ? {} : { startsOn: { lt: filter.to } }),
      ...(filter.from === undefined ? {} : { endsOn: { gt: filter.from } }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select: absenceSelect,
  });
}

/**
 * Serializes the absence writes of one member: locks the member row until the transaction ends, so two concurrent
 * writes cannot each see no overlap and both commit one. False when the member is not an active, unremoved member.
 */
export async function lockMemberForAbsences(tx: Db, workspaceId: string, memberId: string): Promise<boolean> {
  const rows = await tx.prisma.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM workspace_members
     WHERE workspace_id = ${workspaceId}::uuid AND id = ${memberId}::uuid AND status = 'active' AND removed_at IS NULL
     FOR UPDATE`;
  return rows.length === 1;
}

/** The id of a live, requested or approved absence of the member overlapping [startsOn, endsOn), other than `exceptId`. */
export async function overlappingAbsence(tx: Db, workspaceId: string, memberId: string, startsOn: Date, endsOn: Date, exceptId: string | null): Promise<string | null> {
  const row = await tx.prisma.absence.findFirst({
    where: {
      workspaceId,
      memberId,
      archivedAt: null,
      status: { in: ['requested', 'approved'] },
      startsOn: { lt: endsOn },
      endsOn: { gt: startsOn },
      ...(exceptId === null ? {} : { id: { not: exceptId } }),
    },
    select: { id: true },
  });
  return row?.id ?? null;
}

export async function insertAbsence(tx: Db, workspaceId: string, memberId: string, values: AbsenceValues): Promise<AbsenceRecord> {
  return tx.prisma.absence.create({ data: { ...values, workspaceId, memberId }, select: absenceSelect });
}

/** Compare-and-set of a member's live absence. */
export function updateAbsenceIfRevision(tx: Db, workspaceId: string, memberId: string, id: string, expectedRevision: number, values: AbsenceValues): Promise<CasOutcome> {
  return updateIfRevision(tx.prisma.absence, workspaceId, id, expectedRevision, values, { memberId, archivedAt: null });
}

export function archiveAbsence(tx: Db, workspaceId: string, memberId: string, id: string, now: Date): Promise<boolean> {
  return setArchivedAt(tx.prisma.absence, workspaceId, id, now, { memberId });
}

/** Whether two members share an unarchived group (the relationship delegated calendar access asks for). */
export async function shareAGroup(client: Db, workspaceId: string, memberId: string, otherMemberId: string): Promise<boolean> {
  const count = await client.prisma.groupMember.count({
    where: { workspaceId, memberId, group: { archivedAt: null, groupMembers: { some: { memberId: otherMemberId } } } },
  });
  return count > 0;
}

/** A busy interval of a member in an availability window. */
export interface BusyInterval {
  readonly reason: 'appointment' | 'planned-work';
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/** The member's live appointments (owned or attended) and planned work overlapping [from, to). */
export async function busyIntervals(client: Db, workspaceId: string, memberId: string, from: Date, to: Date): Promise<BusyInterval[]> {
  const db = client.prisma;
  const [appointments, planned] = await Promise.all([
    db.appointment.findMany({
      where: { workspaceId, archivedAt: null, startsAt: { lt: to }, endsAt: { gt: from }, OR: [{ memberId }, { attendeeMemberIds: { has: memberId } }] },
      select: { startsAt: true, endsAt: true },
    }),
    db.plannedWork.findMany({ where: { workspaceId, memberId, windowStart: { lt: to }, windowEnd: { gt: from }, task: { archivedAt: null } }, select: { windowStart: true, windowEnd: true } }),
  ]);
  return [
    ...appointments.map((a) => ({ reason: 'appointment' as const, startsAt: a.startsAt, endsAt: a.endsAt })),
    ...planned.map((p) => ({ reason: 'planned-work' as const, startsAt: p.windowStart, endsAt: p.windowEnd })),
  ];
}

/** The member's live approved absences overlapping the dates [fromDay, toDay) (a request is not an absence yet). */
export async function absencesBetween(client: Db, workspaceId: string, memberId: string, fromDay: Date, toDay: Date): Promise<AbsenceRecord[]> {
  return client.prisma.absence.findMany({
    where: { workspaceId, memberId, archivedAt: null, status: 'approved', startsOn: { lt: toDay }, endsOn: { gt: fromDay } },
    select: absenceSelect,
  });
}
