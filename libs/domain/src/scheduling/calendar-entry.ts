import { z } from 'zod';
import { type AbsenceRecord, type AppointmentRecord, archiveAbsence, archiveAppointment, type Db } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure, type Operation, type Procedure } from '../kernel/procedure.js';
import { assertOwnChangeable, findAbsenceOr404 } from './absence-view.js';
import { assertChangeable, findAppointmentOr404 } from './appointment-view.js';
import { resolveSubject, type Subject } from './subject.js';

/**
 * What changing one entry of a member's calendar (an absence, an appointment) shares, through the own routes
 * (`/v1/<entries>/{id}`) and the delegated ones (`/v1/members/{id}/<entries>/{entryId}`).
 */
export interface CalendarEntry<Row extends { readonly id: string }> {
  /** Its grant and aggregate type, the name of its events and of its 404. */
  readonly type: 'absence' | 'appointment';
  /** The entry on the subject's calendar, or 404 `<type> not found` (another member's entry included). */
  readonly find: (tx: Db, workspaceId: string, subject: Subject, id: string) => Promise<Row>;
  /** Refuses a change this caller may not make to the entry; `viaMember` when it came through the delegated routes. */
  readonly assertChangeable: (row: Row, subject: Subject, viaMember: boolean) => void;
  /** Archives it (sets `archived_at`); false when it was gone. */
  readonly archive: (tx: Db, workspaceId: string, memberId: string, id: string, at: Date) => Promise<boolean>;
}

/**
 * Runs `work` on one calendar entry in the operation's transaction: the calendar it is on resolved (resolveSubject),
 * the entry found on it, then the caller's write grant on it — after the lookup, so another member's entry is 404 on
 * this calendar whatever a grant says of it — and the entry's own rule for who may change it now.
 */
export async function onCalendarEntry<Row extends { readonly id: string }, T>(
  op: Operation,
  entry: CalendarEntry<Row>,
  { memberId, id }: { readonly memberId?: string | undefined; readonly id: string },
  work: (tx: Db, subject: Subject, current: Row, now: Date) => Promise<T>,
): Promise<T> {
  const { auth } = op;
  const subject = await resolveSubject(op.database, auth, memberId);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await entry.find(tx, auth.workspaceId, subject, id);
    requireGrant(auth, entry.type, current.id, 'write', entry.type);
    entry.assertChangeable(current, subject, memberId !== undefined);
    return work(tx, subject, current, now);
  });
}

const entryInput = z.object({ memberId: z.string().max(64).optional(), id: z.string().max(64) }).strict();

/** `DELETE` of a calendar entry: archives it (404 afterwards, a second delete included) and writes `<type>.deleted`. */
export function deleteCalendarEntryProcedure<Row extends { readonly id: string }>(name: string, entry: CalendarEntry<Row>): Procedure<typeof entryInput, void> {
  return defineProcedure(name, entryInput, (op, input) =>
    onCalendarEntry(op, entry, input, async (tx, subject, current, now) => {
      if (!(await entry.archive(tx, op.auth.workspaceId, subject.memberId, current.id, now))) throw new DomainError('not_found', `${entry.type} not found`);
      const payload = { [`${entry.type}Id`]: current.id, memberId: subject.memberId, requestId: op.requestId };
      await op.emit(tx, { aggregateType: entry.type, aggregateId: current.id, eventType: `${entry.type}.deleted`, payload, occurredAt: now });
    }),
  );
}

/** An absence: a member changes its own only while requested; an administrator (the delegated routes) any time. */
export const absenceEntry: CalendarEntry<AbsenceRecord> = {
  type: 'absence',
  find: findAbsenceOr404,
  assertChangeable: (row, _subject, viaMember) => assertOwnChangeable(viaMember, row),
  archive: archiveAbsence,
};

/** An appointment: another member's private one is not the caller's to change. */
export const appointmentEntry: CalendarEntry<AppointmentRecord> = {
  type: 'appointment',
  find: findAppointmentOr404,
  assertChangeable: (row, subject) => assertChangeable(subject, row),
  archive: archiveAppointment,
};
