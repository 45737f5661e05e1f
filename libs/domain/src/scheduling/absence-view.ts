import { type AbsenceKindValue, type AbsenceRecord, type AbsenceStatusValue, type AbsenceValues, type Db, findAbsence, lockMemberForAbsences, overlappingAbsence } from '@workcell/db';
import type { MemberAbsenceCreate } from '@workcell/registry';
import type { z } from 'zod';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { Versioned } from '../kernel/versioned.js';
import { validationError } from '../roles/permission-model.js';
import type { Subject } from './subject.js';

/** An absence as the registry's Absence; dates are `YYYY-MM-DD`, endsOn exclusive. */
export type AbsenceView = BaseView & {
  readonly memberId: string;
  readonly kind: AbsenceKindValue;
  readonly startsOn: string;
  readonly endsOn: string;
  readonly halfDayStart: boolean;
  readonly halfDayEnd: boolean;
  readonly note: string | null;
  readonly status: AbsenceStatusValue;
  readonly version: string;
};

const dateOf = (date: Date): string => date.toISOString().slice(0, 10);

export function absenceView(row: AbsenceRecord): AbsenceView {
  return withBaseFields(row, {
    memberId: row.memberId,
    kind: row.kind,
    startsOn: dateOf(row.startsOn),
    endsOn: dateOf(row.endsOn),
    halfDayStart: row.halfDayStart,
    halfDayEnd: row.halfDayEnd,
    note: row.note,
    status: row.status,
    version: versionOf(row.revision),
  });
}

export const versionedAbsence = (row: AbsenceRecord): Versioned<AbsenceView> => ({ resource: absenceView(row), revision: row.revision });

export const absenceNotFound = () => new DomainError('not_found', 'absence not found');

export async function findAbsenceOr404(client: Db, workspaceId: string, subject: Subject, id: string): Promise<AbsenceRecord> {
  const row = isUuid(id) ? await findAbsence(client, workspaceId, subject.memberId, id.toLowerCase()) : null;
  if (!row) throw absenceNotFound();
  return row;
}

/**
 * A member changes its own absence only while it is requested; once decided (approved, rejected, canceled) only a
 * holder of `absences:admin:write` changes it, through the /v1/members/{id}/absences routes.
 */
export function assertOwnChangeable(admin: boolean, row: AbsenceRecord): void {
  if (!admin && row.status !== 'requested') {
    throw new DomainError('conflict', `this absence is ${row.status}: only an administrator (absences:admin:write) changes it now`, [], { status: row.status });
  }
}

/** The writable attributes (the registry's MemberAbsenceCreate / MemberAbsenceUpdate; a member's own carry no status), all optional here. */
export type AbsenceFields = Readonly<Partial<z.output<typeof MemberAbsenceCreate>>>;

const BLOCKING: readonly AbsenceStatusValue[] = ['requested', 'approved'];

/**
 * The stored values after applying `fields` to `current` (a create starts from `initialStatus`), checked as a whole:
 * endsOn after startsOn (exclusive end). Then, with the member's absence writes serialized (its row locked for the
 * transaction), a requested or approved absence may not overlap another one of the member: 409 `conflict` naming it.
 */
export async function absenceValues(tx: Db, workspaceId: string, subject: Subject, current: AbsenceRecord | null, fields: AbsenceFields, initialStatus: AbsenceStatusValue): Promise<AbsenceValues> {
  const values: AbsenceValues = {
    kind: fields.kind ?? current?.kind ?? 'other',
    startsOn: fields.startsOn === undefined ? (current?.startsOn ?? new Date(0)) : new Date(`${fields.startsOn}T00:00:00Z`),
    endsOn: fields.endsOn === undefined ? (current?.endsOn ?? new Date(0)) : new Date(`${fields.endsOn}T00:00:00Z`),
    halfDayStart: fields.halfDayStart ?? current?.halfDayStart ?? false,
    halfDayEnd: fields.halfDayEnd ?? current?.halfDayEnd ?? false,
    note: fields.note === undefined ? (current?.note ?? null) : fields.note,
    status: fields.status ?? current?.status ?? initialStatus,
  };
  if (values.endsOn.getTime() <= values.startsOn.getTime())
    throw validationError('the absence is not valid', [{ pointer: '/endsOn', message: 'must be after startsOn (endsOn is exclusive: the first day back)' }]);
  if (!(await lockMemberForAbsences(tx, workspaceId, subject.memberId))) throw new DomainError('not_found', 'member not found');
  if (BLOCKING.includes(values.status)) {
    const other = await overlappingAbsence(tx, workspaceId, subject.memberId, values.startsOn, values.endsOn, current?.id ?? null);
    if (other !== null)
      throw new DomainError(
        'conflict',
        `the member has a requested or approved absence (${other}) overlapping these dates`,
        [{ pointer: '/startsOn', message: 'overlaps another absence of the member' }],
        { absenceId: other },
      );
  }
  return values;
}
