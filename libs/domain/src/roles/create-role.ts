import { z } from 'zod';
import { completeHeldKey, inPermissionTransaction, insertRole, roleNameTaken } from '@workcell/db';
import { RoleCreate } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertMayGrant, assertPermissionKeys } from './permission-model.js';

import { type RoleView, roleView } from './view.js';

export const createRoleInput = z.object({ ...RoleCreate.shape }).strict();

export function nameTaken(name: string): DomainError {
  return new DomainError('conflict', 'a role with this name already exists', [
    { pointer: '/name', message: `a role named ${JSON.stringify(name)} already exists in this workspace (archived roles keep their names)` },
  ]);
}

/**
 * `POST /v1/roles`: a custom role. Every permission must be a known key (400, pointer into permissions)
 * the caller holds itself (403); names are unique per workspace (409 conflict). Audited.
 */
export const createRole = defineProcedure('createRole', createRoleInput, async (op, input): Promise<RoleView> => {
  const { auth } = op;
  assertPermissionKeys(input.permissions);
  const now = op.now();
  return inPermissionTransaction(op.database, auth.workspaceId, async (tx) => {
    await assertMayGrant(
      tx,
      auth,
      input.permissions.map((key, i) => ({ key, pointer: `/permissions/${i}` })),
    );
    if (await roleNameTaken(tx, auth.workspaceId, input.name)) throw nameTaken(input.name);
    const role = await insertRole(tx, auth.workspaceId, { name: input.name, description: input.description ?? null, permissions: input.permissions });
    await recordOperationAudit(op, tx, { type: 'role', id: role.id, action: 'created', metadata: { permissions: role.permissions }, at: now });
    const result = roleView(role);
    await completeHeldKey(tx, op.idempotencyKey, auth.workspaceId, result);
    return result;
  });
});
