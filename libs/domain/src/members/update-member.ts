import { z } from 'zod';
import { findMember, findRolePermissions, inPermissionTransaction, replaceMemberRoles, updateMemberIfRevision } from '@workcell/db';
import { MemberUpdate } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertAdministrable, assertAllFound, assertIdList, assertMayGrant, countAdministrators, seesPersonalData } from '../roles/permission-model.js';

import { type MemberView, memberView, STATUS_TO_STORED } from './view.js';

export const updateMemberInput = z.object({ id: z.string().max(64), ...MemberUpdate.shape }).strict();

/**
 * `PATCH /v1/members/{id}` (compare-and-set): the member's role assignment (`roleIds`, replaced as a whole
 * set) and status. Deactivating sets the stored status `disabled`: the member's personal access tokens
 * answer 401 from the very next request, and a role change narrows or widens them just as fast.
 * Unknown roles are 400 (pointer into roleIds); granting a role with permissions the caller does not hold
 * is 403; leaving no administrator is 409 last_administrator. One transaction with its audit events.
 */
export const updateMember = defineProcedure('updateMember', updateMemberInput, async (op, input): Promise<MemberView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'member not found');
  const id = input.id.toLowerCase();
  if (input.roleIds) assertIdList(input.roleIds, '/roleIds', 'role');
  const roleIds = input.roleIds?.map((r) => r.toLowerCase());
  const now = op.now();

  return inPermissionTransaction(op.database, workspaceId, async (tx) => {
    const member = await findMember(tx, workspaceId, id);
    if (!member) throw new DomainError('not_found', 'member not found');
    if (roleIds) {
      const roles = await findRolePermissions(tx, workspaceId, roleIds);
      assertAllFound(roleIds, roles, '/roleIds', 'role');
      const held = new Set(member.roleIds);
      await assertMayGrant(
        tx,
        auth,
        roleIds.flatMap((roleId, i) => (held.has(roleId) ? [] : (roles.get(roleId) ?? []).map((key) => ({ key, pointer: `/roleIds/${i}` })))),
      );
    }
    const administrators = await countAdministrators(tx, workspaceId);
    const status = input.status === undefined ? undefined : STATUS_TO_STORED[input.status];
    const statusChanged = status !== undefined && status !== member.status;
    const outcome = await updateMemberIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), {
      ...(statusChanged ? { status: { to: status, at: now } } : {}),
    });
    if (outcome !== 'updated') throw casFailure(outcome, 'member');
    const roles = roleIds ? await replaceMemberRoles(tx, workspaceId, id, roleIds) : { added: [], removed: [] };
    await assertAdministrable(tx, workspaceId, administrators);

    if (statusChanged) {
      await recordOperationAudit(op, tx, { type: 'member', id, action: 'status_changed', metadata: { from: member.status, to: status }, at: now });
    }
    if (roles.added.length > 0 || roles.removed.length > 0) {
      await recordOperationAudit(op, tx, { type: 'member', id, action: 'roles_changed', metadata: { rolesAdded: roles.added, rolesRemoved: roles.removed }, at: now });
    }
    const updated = await findMember(tx, workspaceId, id);
    if (!updated) throw new DomainError('not_found', 'member not found');
    return memberView(updated, seesPersonalData(auth));
  });
});
