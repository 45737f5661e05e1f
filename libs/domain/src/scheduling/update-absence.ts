import { z } from 'zod';
import { updateAbsenceIfRevision } from '@workcell/db';
import { MemberAbsenceUpdate } from '@workcell/registry';
import { givenAttributes } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { requireGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { absenceValues, type AbsenceView, absenceView, assertOwnChangeable, findAbsenceOr404, versionedAbsence } from './absence-view.js';
import { resolveSubject } from './subject.js';

export const updateAbsenceInput = z.object({ memberId: z.string().max(64).optional(), id: z.string().max(64), ...MemberAbsenceUpdate.shape }).strict();

/**
 * `PATCH /v1/absences/{id}` (the member's own, while requested) and `PATCH /v1/members/{id}/absences/{absenceId}`
 * (an administrator: any attribute and status, e.g. approving). Compare-and-set on `expectedVersion`; the result may
 * not overlap another requested or approved absence (409 `conflict`). Writes `absence.updated`.
 */
export const updateAbsence = defineProcedure('updateAbsence', updateAbsenceInput, async (op, input): Promise<Versioned<AbsenceView>> => {
  const { auth, requestId } = op;
  const { memberId, id, expectedVersion, ...fields } = input;
  const workspaceId = auth.workspaceId;
  const changed = givenAttributes(fields);
  const subject = await resolveSubject(op.database, auth, memberId);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findAbsenceOr404(tx, workspaceId, subject, id);
    // After the lookup: another member's absence is 404 on this calendar whatever a grant says of it.
    requireGrant(auth, 'absence', current.id, 'write', 'absence');
    assertOwnChangeable(memberId !== undefined, current);
    const values = await absenceValues(tx, workspaceId, subject, current, fields, current.status);
    const outcome = await updateAbsenceIfRevision(tx, workspaceId, subject.memberId, current.id, expectedRevision(expectedVersion), values);
    if (outcome !== 'updated') throw casFailure(outcome, 'absence');
    const row = await findAbsenceOr404(tx, workspaceId, subject, current.id);
    await op.emit(tx, resourceEvent(op, { type: 'absence', id: row.id, action: 'updated', view: absenceView(row), changed, at: now }));
    return versionedAbsence(row);
  });
});
