import { z } from 'zod';
import { findRole, inPermissionTransaction, updateRoleIfRevision } from '@workcell/db';
import { RolePermissionsReplace } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertAdministrable, assertMayGrant, assertPermissionKeys, countAdministrators } from './permission-model.js';

import { findCustomRole, roleIdOf, roleNotFound } from './custom-role.js';
import { type RoleView, roleView } from './view.js';

export const replaceRolePermissionsInput = z.object({ id: z.string().max(64), ...RolePermissionsReplace.shape }).strict();

/**
 * `PUT /v1/roles/{id}/permissions` (compare-and-set, all or nothing): the role's whole permission set.
 * Unknown keys are 400 (pointer into permissions) and change nothing; adding a key the caller does not
 * hold is 403; taking the last administrator's roles:write or members:write is 409 last_administrator;
 * built-in roles are 409 built_in_role. Every member holding the role, and their personal access tokens,
 * see the new set on their very next request. One transaction with its audit event.
 */
export const replaceRolePermissions = defineProcedure('replaceRolePermissions', replaceRolePermissionsInput, async (op, input): Promise<RoleView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = roleIdOf(input.id);
  assertPermissionKeys(input.permissions);
  const now = op.now();
  return inPermissionTransaction(op.database, workspaceId, async (tx) => {
    const role = await findCustomRole(tx, workspaceId, id);
    const current = new Set(role.permissions);
    const wanted = new Set(input.permissions);
    await assertMayGrant(
      tx,
      auth,
      input.permissions.flatMap((key, i) => (current.has(key) ? [] : [{ key, pointer: `/permissions/${i}` }])),
    );
    const administrators = await countAdministrators(tx, workspaceId);
    const outcome = await updateRoleIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), { permissions: input.permissions });
    if (outcome !== 'updated') throw casFailure(outcome, 'role');
    await assertAdministrable(tx, workspaceId, administrators);
    await recordOperationAudit(op, tx, {
      type: 'role',
      id,
      action: 'permissions_replaced',
      metadata: { added: input.permissions.filter((k) => !current.has(k)), removed: role.permissions.filter((k) => !wanted.has(k)) },
      at: now,
    });
    const updated = await findRole(tx, workspaceId, id);
    if (!updated) throw roleNotFound();
    return roleView(updated);
  });
});
