import { z } from 'zod';
import { findRole, inPermissionTransaction, roleNameTaken, updateRoleIfRevision } from '@workcell/db';
import { RoleUpdate } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { nameTaken } from './create-role.js';
import { findCustomRole, roleIdOf, roleNotFound } from './custom-role.js';

import { type RoleView, roleView } from './view.js';

export const updateRoleInput = z.object({ id: z.string().max(64), ...RoleUpdate.shape }).strict();

/** `PATCH /v1/roles/{id}` (compare-and-set): name and description of a custom role (built-in roles: 409). Audited. */
export const updateRole = defineProcedure('updateRole', updateRoleInput, async (op, input): Promise<RoleView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = roleIdOf(input.id);
  const now = op.now();
  return inPermissionTransaction(op.database, workspaceId, async (tx) => {
    await findCustomRole(tx, workspaceId, id);
    if (input.name !== undefined && (await roleNameTaken(tx, workspaceId, input.name, id))) throw nameTaken(input.name);
    const change = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
    };
    const outcome = await updateRoleIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'role');
    await recordOperationAudit(op, tx, { type: 'role', id, action: 'updated', metadata: { changed: Object.keys(change) }, at: now });
    const updated = await findRole(tx, workspaceId, id);
    if (!updated) throw roleNotFound();
    return roleView(updated);
  });
});
