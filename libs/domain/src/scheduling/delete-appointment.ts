import { z } from 'zod';
import { archiveAppointment } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import { appointmentNotFound, assertChangeable, findAppointmentOr404 } from './appointment-view.js';
import { resolveSubject } from './subject.js';

export const deleteAppointmentInput = z.object({ memberId: z.string().max(64).optional(), id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/appointments/{id}` and `DELETE /v1/members/{id}/appointments/{appointmentId}`: archives the
 * appointment (404 afterwards, a second delete included) and writes `appointment.deleted`.
 */
export const deleteAppointment = defineProcedure('deleteAppointment', deleteAppointmentInput, async (op, input): Promise<void> => {
  const { auth, requestId } = op;
  const { memberId, id } = input;
  const workspaceId = auth.workspaceId;
  const subject = await resolveSubject(op.database, auth, memberId);
  const now = op.now();
  await op.transaction(async (tx) => {
    const current = await findAppointmentOr404(tx, workspaceId, subject, id);
    // After the lookup: another member's appointment is 404 on this calendar whatever a grant says of it.
    requireGrant(auth, 'appointment', current.id, 'write', 'appointment');
    assertChangeable(subject, current);
    if (!(await archiveAppointment(tx, workspaceId, subject.memberId, current.id, now))) throw appointmentNotFound();
    await op.emit(tx, {
      aggregateType: 'appointment',
      aggregateId: current.id,
      eventType: 'appointment.deleted',
      payload: { appointmentId: current.id, memberId: subject.memberId, requestId },
      occurredAt: now,
    });
  });
});
