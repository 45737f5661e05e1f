import { z } from 'zod';
import { insertAbsence } from '@workcell/db';
import { MemberAbsenceCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { absenceValues, type AbsenceView, absenceView, versionedAbsence } from './absence-view.js';
import { resolveSubject } from './subject.js';

// The own route's body (AbsenceCreate) has no status: the edge refuses one there, before this input.
export const createAbsenceInput = z.object({ memberId: z.string().max(64).optional(), ...MemberAbsenceCreate.shape }).strict();

/**
 * `POST /v1/absences` (status `requested`) and `POST /v1/members/{id}/absences` (an administrator: any status,
 * default `approved`). A requested or approved absence overlapping another of the member is 409 `conflict`. Writes
 * `absence.created` in the same transaction, which completes a held idempotency key.
 */
export const createAbsence = defineProcedure('createAbsence', createAbsenceInput, async (op, input): Promise<Versioned<AbsenceView>> => {
  const { auth } = op;
  const { memberId, ...fields } = input;
  const workspaceId = auth.workspaceId;
  const subject = await resolveSubject(op.database, auth, memberId);
  requireTypeGrant(auth, 'absence', 'write', 'absences');
  const now = op.now();
  return op.transaction(async (tx) => {
    const values = await absenceValues(tx, workspaceId, subject, null, memberId === undefined ? { ...fields, status: undefined } : fields, memberId === undefined ? 'requested' : 'approved');
    const row = await insertAbsence(tx, workspaceId, subject.memberId, values);
    const result = versionedAbsence(row);
    await op.emit(tx, resourceEvent(op, { type: 'absence', id: row.id, action: 'created', view: absenceView(row), at: now, result }));
    return result;
  });
});
