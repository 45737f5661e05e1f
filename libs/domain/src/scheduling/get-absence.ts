import { z } from 'zod';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { type AbsenceView, findAbsenceOr404, versionedAbsence } from './absence-view.js';
import { resolveSubject } from './subject.js';

export const getAbsenceInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/absences/{id}`: one of the acting member's absences (another member's is 404). */
export const getAbsence = defineProcedure('getAbsence', getAbsenceInput, async (op, { id }): Promise<Versioned<AbsenceView>> => {
  const { auth } = op;
  const subject = await resolveSubject(op.database, auth, undefined);
  return versionedAbsence(await findAbsenceOr404(op.database, auth.workspaceId, subject, id));
});
