import { z } from 'zod';
import { listInvitationsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { invitationView, type InvitationView } from './view.js';
import { seesPersonalData } from '../roles/permission-model.js';

export const listInvitationsInput = z.object({ auth: authInput, status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional(), ...pageInput }).strict();

/**
 * `GET /v1/invitations`: the workspace's invitations, oldest first, optionally of one status (decided at the request's
 * instant: `pending` lists only unexpired ones, `expired` includes pending ones past their expiry). Addresses only with
 * members:pii:read.
 */
export const listInvitations = defineProcedure(
  'listInvitations',
  listInvitationsInput,
  async (ctx, { auth, status, cursor, limit }): Promise<{ items: InvitationView[]; limit: number; nextCursor: string | null }> => {
    const now = ctx.now();
    const scope = { workspaceId: auth.workspaceId, list: 'listInvitations', filter: { status: status ?? null } };
    const page = await paginate(ctx.config, scope, { cursor, limit }, (afterId, take) => listInvitationsPage(ctx.database, auth.workspaceId, { status, now }, afterId, take));
    const personalData = seesPersonalData(auth);
    return { items: page.items.map((row) => invitationView(row, now, personalData)), limit, nextCursor: page.nextCursor };
  },
);
