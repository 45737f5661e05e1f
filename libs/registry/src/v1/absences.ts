import { z } from 'zod';
import { baseFields, casPatchOf, DateOnly, ResourceId, ShortText, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('absences');

export const AbsenceKind = z.enum(['vacation', 'sick', 'parental', 'unpaid', 'other']);
export const AbsenceStatus = z.enum(['requested', 'approved', 'rejected', 'canceled']);

export const Absence = z
  .object({
    ...baseFields,
    memberId: ResourceId,
    kind: AbsenceKind,
    startsOn: DateOnly,
    endsOn: DateOnly,
    halfDayStart: z.boolean(),
    halfDayEnd: z.boolean(),
    note: z.string().nullable(),
    status: AbsenceStatus,
    version: Version,
  })
  .meta({ id: 'Absence', description: 'An absence of a member.' });

const absenceFields = z.strictObject({
  kind: AbsenceKind,
  startsOn: DateOnly,
  endsOn: DateOnly,
  halfDayStart: z.boolean().optional(),
  halfDayEnd: z.boolean().optional(),
  note: ShortText.nullable().optional(),
});
export const AbsenceCreate = absenceFields.meta({ id: 'AbsenceCreate', description: 'A new absence of the acting member.' });
export const AbsenceUpdate = casPatchOf(absenceFields, 'AbsenceUpdate', 'Compare-and-set of absence attributes.');

const adminFields = absenceFields.extend({ status: AbsenceStatus.optional() });
export const MemberAbsenceCreate = adminFields.meta({
  id: 'MemberAbsenceCreate',
  description: "A new absence for another member (administrators may set the status).",
});
export const MemberAbsenceUpdate = casPatchOf(adminFields, 'MemberAbsenceUpdate', "Compare-and-set of another member's absence.");

const window = { from: DateOnly.optional(), to: DateOnly.optional(), status: AbsenceStatus.optional() };

export const absenceOperations = [
  // acting-user boundary
  f.list('listAbsences', '/v1/absences', { scopes: ['absences:read'], query: window, item: Absence }),
  f.create('createAbsence', '/v1/absences', { scopes: ['absences:write'], body: AbsenceCreate, data: Absence }),
  f.get('getAbsence', '/v1/absences/{id}', { scopes: ['absences:read'], data: Absence }),
  f.update('updateAbsence', '/v1/absences/{id}', {
    scopes: ['absences:write'],
    concurrency: 'cas',
    body: AbsenceUpdate,
    data: Absence,
  }),
  f.remove('deleteAbsence', '/v1/absences/{id}', { scopes: ['absences:write'] }),
  // another member
  f.list('listMemberAbsences', '/v1/members/{id}/absences', {
    scopes: ['absences:delegated:read'],
    query: window,
    item: Absence,
  }),
  f.create('createMemberAbsence', '/v1/members/{id}/absences', {
    scopes: ['absences:admin:write'],
    body: MemberAbsenceCreate,
    data: Absence,
  }),
  f.update('updateMemberAbsence', '/v1/members/{id}/absences/{absenceId}', {
    scopes: ['absences:admin:write'],
    concurrency: 'cas',
    body: MemberAbsenceUpdate,
    data: Absence,
  }),
  f.remove('deleteMemberAbsence', '/v1/members/{id}/absences/{absenceId}', { scopes: ['absences:admin:write'] }),
] satisfies readonly OperationDefinition[];
