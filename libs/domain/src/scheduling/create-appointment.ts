import { z } from 'zod';
import { insertAppointment } from '@workcell/db';
import { AppointmentCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { appointmentValues, type AppointmentView, redactedAppointmentView, versionedAppointment } from './appointment-view.js';
import { resolveSubject } from './subject.js';

export const createAppointmentInput = z.object({ memberId: z.string().max(64).optional(), ...AppointmentCreate.shape }).strict();

/**
 * `POST /v1/appointments` and `POST /v1/members/{id}/appointments`: a new appointment (revision 1) in the subject's
 * calendar. Appointments may overlap (a calendar shows double bookings; availability counts the time once). Writes
 * `appointment.created` (a private one redacted) in the same transaction, which completes a held idempotency key.
 */
export const createAppointment = defineProcedure('createAppointment', createAppointmentInput, async (op, input): Promise<Versioned<AppointmentView>> => {
  const { auth } = op;
  const { memberId, ...fields } = input;
  const workspaceId = auth.workspaceId;
  const subject = await resolveSubject(op.database, auth, memberId);
  requireTypeGrant(auth, 'appointment', 'write', 'appointments');
  const now = op.now();
  return op.transaction(async (tx) => {
    const values = await appointmentValues(tx, workspaceId, null, fields);
    const row = await insertAppointment(tx, workspaceId, subject.memberId, values);
    const result = versionedAppointment(subject, row);
    await op.emit(tx, resourceEvent(op, { type: 'appointment', id: row.id, action: 'created', view: redactedAppointmentView(row), at: now, result }));
    return result;
  });
});
