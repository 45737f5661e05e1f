import { z } from 'zod';
import { findMember } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { seesPersonalData } from '../roles/permission-model.js';

import { type MemberView, memberView } from './view.js';

export const getMemberInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/members/{id}`: one member of the caller's workspace (a removed or foreign one is 404). */
export const getMember = defineProcedure('getMember', getMemberInput, async (op, { id }): Promise<MemberView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findMember(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'member not found');
  return memberView(row, seesPersonalData(auth));
});
