import { z } from 'zod';
import { authInput } from '../kernel/inputs.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { type AbsenceView, findAbsenceOr404, versionedAbsence } from './absence-view.js';
import { resolveSubject } from './subject.js';

export const getAbsenceInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/absences/{id}`: one of the acting member's absences (another member's is 404). */
export const getAbsence = defineProcedure('getAbsence', getAbsenceInput, async (ctx, { auth, id }): Promise<Versioned<AbsenceView>> => {
  const subject = await resolveSubject(ctx.database, auth, undefined);
  return versionedAbsence(await findAbsenceOr404(ctx.database, auth.workspaceId, subject, id));
});
