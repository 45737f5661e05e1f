import { z } from 'zod';
import { baseFields, casPatchOf, DateOnly, ResourceId, ShortText, Version } from '../schemas/common.js';
import { memberCalendar } from './builders.js';

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
  .meta({
    id: 'Absence',
    description:
      'An absence of a member over the dates [startsOn, endsOn): endsOn is exclusive (the first day back) and after startsOn. halfDayStart: the first day is absent from midday only; halfDayEnd: the last day (the day before endsOn) until midday only. A requested or approved absence may not overlap another of the same member (409 `conflict`, pointer /startsOn); rejected and canceled ones do not count. Only approved absences reduce availability.',
  });

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
  description: 'A new absence for another member (administrators may set the status).',
});
export const MemberAbsenceUpdate = casPatchOf(adminFields, 'MemberAbsenceUpdate', "Compare-and-set of another member's absence.");

const own =
  "The acting member's own absences (the member behind a personal access token); a service account acts for no member and gets 403 `forbidden` (it uses the /v1/members/{id}/absences routes). A member's own absence starts `requested`; the member may change or delete it only while it is requested (409 `conflict` once decided).";
const delegated =
  "Another member's absences. Besides the scope (which a personal token holds only when the member's roles hold the key): the member must be active (else 404), and a member caller must share an unarchived group with it or hold `members:write` (else 403 `forbidden`); a service account needs resource grants on `absences` (PUT /v1/service-accounts/{id}/resource-grants): a grant on the absence to read or change it (`write`), `resourceId: null` with `write` to create (else 403 `insufficient_grant` naming the grant). An administrator sets any status (a create defaults to `approved`) and changes absences in any status.";

const window = { from: DateOnly.optional(), to: DateOnly.optional(), status: AbsenceStatus.optional() };

export const absenceOperations = memberCalendar('absences', {
  singular: 'Absence',
  resource: Absence,
  window,
  listDescription: 'Lists those overlapping the dates [from, to) in creation order.',
  own: { read: 'absences:read', write: 'absences:write', description: own, create: AbsenceCreate, update: AbsenceUpdate },
  delegated: { read: 'absences:delegated:read', write: 'absences:admin:write', description: delegated, create: MemberAbsenceCreate, update: MemberAbsenceUpdate },
});
