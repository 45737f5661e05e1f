import { z } from 'zod';
import { archiveAbsence } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import { absenceNotFound, assertOwnChangeable, findAbsenceOr404 } from './absence-view.js';
import { resolveSubject } from './subject.js';

export const deleteAbsenceInput = z.object({ memberId: z.string().max(64).optional(), id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/absences/{id}` (the member's own, while requested) and `DELETE /v1/members/{id}/absences/{absenceId}`
 * (an administrator, any status): archives the absence (404 afterwards) and writes `absence.deleted`.
 */
export const deleteAbsence = defineProcedure('deleteAbsence', deleteAbsenceInput, async (op, input): Promise<void> => {
  const { auth, requestId } = op;
  const { memberId, id } = input;
  const workspaceId = auth.workspaceId;
  const subject = await resolveSubject(op.database, auth, memberId);
  const now = op.now();
  await op.transaction(async (tx) => {
    const current = await findAbsenceOr404(tx, workspaceId, subject, id);
    // After the lookup: another member's absence is 404 on this calendar whatever a grant says of it.
    requireGrant(auth, 'absence', current.id, 'write', 'absence');
    assertOwnChangeable(memberId !== undefined, current);
    if (!(await archiveAbsence(tx, workspaceId, subject.memberId, current.id, now))) throw absenceNotFound();
    await op.emit(tx, {
      aggregateType: 'absence',
      aggregateId: current.id,
      eventType: 'absence.deleted',
      payload: { absenceId: current.id, memberId: subject.memberId, requestId },
      occurredAt: now,
    });
  });
});
