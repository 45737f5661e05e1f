import { z } from 'zod';
import { findRolePermissions, insertInvitation, isMemberEmail, lockPermissions, pendingInvitationFor } from '@workcell/db';
import { InvitationCreate } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertAllFound, assertIdList, assertMayGrant, seesPersonalData } from '../roles/permission-model.js';
import { INVITATION_LIFETIME_MS, invitationEventView, invitationView, type InvitationView } from './view.js';

export const createInvitationInput = z.object({ ...InvitationCreate.shape }).strict();

/**
 * `POST /v1/invitations`: invites an e-mail address (stored lower-case) to join with `roleIds`, for
 * INVITATION_LIFETIME_MS. Every role must be a role of the workspace (400 with a pointer per bad id) whose permissions
 * the caller holds (403, as for updateMember: nobody invites into more than it has). An address with a membership in
 * the workspace (active, deactivated or removed: removal is final) is 409 `already_member`; one with a pending, unexpired invitation is 409
 * `invitation_pending` (resend that one instead). Runs under the workspace's permission lock, so deleteRole's
 * role_in_use check and a concurrent create for the same address see it. `invitation.created` (without the address)
 * is written in the same transaction, which completes a held idempotency key; the worker sends the e-mail from it.
 */
export const createInvitation = defineProcedure('createInvitation', createInvitationInput, async (op, input): Promise<InvitationView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  assertIdList(input.roleIds, '/roleIds', 'role');
  const roleIds = input.roleIds.map((r) => r.toLowerCase());
  const email = input.email.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    await lockPermissions(tx, workspaceId);
    const roles = await findRolePermissions(tx, workspaceId, roleIds);
    assertAllFound(roleIds, roles, '/roleIds', 'role');
    await assertMayGrant(
      tx,
      auth,
      roleIds.flatMap((roleId, i) => (roles.get(roleId) ?? []).map((key) => ({ key, pointer: `/roleIds/${i}` }))),
    );
    if (await isMemberEmail(tx, workspaceId, email)) {
      throw new DomainError('already_member', 'this address belongs to a member of the workspace (or to one removed from it: removal is final)', [
        { pointer: '/email', message: 'has a membership in this workspace' },
      ]);
    }
    const pending = await pendingInvitationFor(tx, workspaceId, email, now);
    if (pending !== null) {
      throw new DomainError('invitation_pending', 'this address has a pending invitation; resend or revoke it', [{ pointer: '/email', message: 'has a pending invitation' }], {
        invitationId: pending,
      });
    }
    const invitedBy = auth.principal.type === 'member' ? { memberId: auth.principal.id } : { serviceAccountId: auth.principal.id };
    const row = await insertInvitation(tx, workspaceId, { email, roleIds, message: input.message ?? null, expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS), invitedBy, now });
    const result = invitationView(row, now, seesPersonalData(auth));
    await op.emit(tx, resourceEvent(op, { type: 'invitation', id: row.id, action: 'created', view: invitationEventView(row, now), at: now, result }));
    return result;
  });
});
