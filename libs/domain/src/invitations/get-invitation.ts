import { z } from 'zod';
import { findInvitation } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';

import { invitationNotFound, invitationView, type InvitationView } from './view.js';
import { seesPersonalData } from '../roles/permission-model.js';

export const getInvitationInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/invitations/{id}`: one invitation of the caller's workspace (another workspace's is 404). */
export const getInvitation = defineProcedure('getInvitation', getInvitationInput, async (op, { id }): Promise<InvitationView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findInvitation(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw invitationNotFound();
  return invitationView(row, op.now(), seesPersonalData(auth));
});
