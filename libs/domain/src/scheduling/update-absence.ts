import { z } from 'zod';
import { updateAbsenceIfRevision } from '@workcell/db';
import { MemberAbsenceUpdate } from '@workcell/registry';
import { givenAttributes } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { absenceValues, type AbsenceView, absenceView, findAbsenceOr404, versionedAbsence } from './absence-view.js';
import { absenceEntry, onCalendarEntry } from './calendar-entry.js';

export const updateAbsenceInput = z.object({ memberId: z.string().max(64).optional(), id: z.string().max(64), ...MemberAbsenceUpdate.shape }).strict();

/**
 * `PATCH /v1/absences/{id}` (the member's own, while requested) and `PATCH /v1/members/{id}/absences/{absenceId}`
 * (an administrator: any attribute and status, e.g. approving). Compare-and-set on `expectedVersion`; the result may
 * not overlap another requested or approved absence (409 `conflict`). Writes `absence.updated`.
 */
export const updateAbsence = defineProcedure('updateAbsence', updateAbsenceInput, async (op, input): Promise<Versioned<AbsenceView>> => {
  // The path's ids name the entry (onCalendarEntry); the rest are the attributes to change.
  const { memberId: _memberId, id: _id, expectedVersion, ...fields } = input;
  const changed = givenAttributes(fields);
  return onCalendarEntry(op, absenceEntry, input, async (tx, subject, current, now) => {
    const workspaceId = op.auth.workspaceId;
    const values = await absenceValues(tx, workspaceId, subject, current, fields, current.status);
    const outcome = await updateAbsenceIfRevision(tx, workspaceId, subject.memberId, current.id, expectedRevision(expectedVersion), values);
    if (outcome !== 'updated') throw casFailure(outcome, 'absence');
    const row = await findAbsenceOr404(tx, workspaceId, subject, current.id);
    await op.emit(tx, resourceEvent(op, { type: 'absence', id: row.id, action: 'updated', view: absenceView(row), changed, at: now }));
    return versionedAbsence(row);
  });
});
