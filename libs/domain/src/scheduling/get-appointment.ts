import { z } from 'zod';
import { authInput } from '../kernel/inputs.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { type AppointmentView, findAppointmentOr404, versionedAppointment } from './appointment-view.js';
import { resolveSubject } from './subject.js';

export const getAppointmentInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/appointments/{id}`: one of the acting member's appointments (another member's is 404). */
export const getAppointment = defineProcedure('getAppointment', getAppointmentInput, async (ctx, { auth, id }): Promise<Versioned<AppointmentView>> => {
  const subject = await resolveSubject(ctx.database, auth, undefined);
  return versionedAppointment(subject, await findAppointmentOr404(ctx.database, auth.workspaceId, subject, id));
});
