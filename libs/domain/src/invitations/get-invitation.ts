import { z } from 'zod';
import { findInvitation } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput } from '../kernel/inputs.js';
import { invitationNotFound, invitationView, type InvitationView } from './view.js';
import { seesPersonalData } from '../roles/permission-model.js';

export const getInvitationInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/invitations/{id}`: one invitation of the caller's workspace (another workspace's is 404). */
export const getInvitation = defineProcedure('getInvitation', getInvitationInput, async (ctx, { auth, id }): Promise<InvitationView> => {
  const row = isUuid(id) ? await findInvitation(ctx.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw invitationNotFound();
  return invitationView(row, ctx.now(), seesPersonalData(auth));
});
