import { z } from 'zod';
import { listInvitationsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { invitationView, type InvitationView } from './view.js';
import { seesPersonalData } from '../roles/permission-model.js';

export const listInvitationsInput = z.object({ status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional(), ...pageInput }).strict();

/**
 * `GET /v1/invitations`: the workspace's invitations, oldest first, optionally of one status (decided at the request's
 * instant: `pending` lists only unexpired ones, `expired` includes pending ones past their expiry). Addresses only with
 * members:pii:read.
 */
export const listInvitations = defineProcedure(
  'listInvitations',
  listInvitationsInput,
  async (op, { status, cursor, limit }): Promise<{ items: InvitationView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const now = op.now();
    const scope = { workspaceId: auth.workspaceId, list: 'listInvitations', filter: { status: status ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listInvitationsPage(op.database, auth.workspaceId, { status, now }, afterId, take));
    const personalData = seesPersonalData(auth);
    return { items: page.items.map((row) => invitationView(row, now, personalData)), limit, nextCursor: page.nextCursor };
  },
);
