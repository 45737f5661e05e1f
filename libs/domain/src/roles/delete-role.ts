import { z } from 'zod';
import { archiveRole, inPermissionTransaction, roleUsage } from '@workcell/db';
import { recordOperationAudit } from '../identity/actor.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { findCustomRole, roleIdOf, roleNotFound } from './custom-role.js';

export const deleteRoleInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/roles/{id}`: archives a custom role (never deletes it: audit events name it). Refused with
 * 409 built_in_role for built-in roles and 409 role_in_use while a member holds it or a pending invitation
 * would grant it (unassign it first: nobody loses a permission as a side effect). Audited.
 */
export const deleteRole = defineProcedure('deleteRole', deleteRoleInput, async (op, input): Promise<{ archived: true }> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = roleIdOf(input.id);
  const now = op.now();
  return inPermissionTransaction(op.database, workspaceId, async (tx) => {
    const role = await findCustomRole(tx, workspaceId, id);
    const usage = await roleUsage(tx, workspaceId, id, now);
    if (usage.members > 0 || usage.pendingInvitations > 0) {
      throw new DomainError('role_in_use', `the role is still assigned to ${usage.members} member(s) and offered by ${usage.pendingInvitations} pending invitation(s); unassign it first`, [], usage);
    }
    if (!(await archiveRole(tx, workspaceId, id, now))) throw roleNotFound();
    await recordOperationAudit(op, tx, { type: 'role', id, action: 'archived', metadata: { name: role.name, permissions: role.permissions }, at: now });
    return { archived: true as const };
  });
});
