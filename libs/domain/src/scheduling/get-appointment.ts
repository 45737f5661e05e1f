import { z } from 'zod';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { type AppointmentView, findAppointmentOr404, versionedAppointment } from './appointment-view.js';
import { resolveSubject } from './subject.js';

export const getAppointmentInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/appointments/{id}`: one of the acting member's appointments (another member's is 404). */
export const getAppointment = defineProcedure('getAppointment', getAppointmentInput, async (op, { id }): Promise<Versioned<AppointmentView>> => {
  const { auth } = op;
  const subject = await resolveSubject(op.database, auth, undefined);
  return versionedAppointment(subject, await findAppointmentOr404(op.database, auth.workspaceId, subject, id));
});
