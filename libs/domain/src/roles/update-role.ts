import { z } from 'zod';
import { findRole, inPermissionTransaction, recordAudit, roleNameTaken, updateRoleIfRevision } from '@workcell/db';
import { RoleUpdate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { nameTaken } from './create-role.js';

import { type RoleView, roleView } from './view.js';

export const updateRoleInput = z.object({ id: z.string().max(64), ...RoleUpdate.shape }).strict();

export function builtInRole(): DomainError {
  return new DomainError('built_in_role', 'built-in roles cannot be changed or deleted; create a custom role instead');
}

/** `PATCH /v1/roles/{id}` (compare-and-set): name and description of a custom role (built-in roles: 409). Audited. */
export const updateRole = defineProcedure('updateRole', updateRoleInput, async (op, input): Promise<RoleView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'role not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return inPermissionTransaction(op.database, workspaceId, async (tx) => {
    const role = await findRole(tx, workspaceId, id);
    if (!role) throw new DomainError('not_found', 'role not found');
    if (role.isSystem) throw builtInRole();
    if (input.name !== undefined && (await roleNameTaken(tx, workspaceId, input.name, id))) throw nameTaken(input.name);
    const change = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
    };
    const outcome = await updateRoleIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'role');
    await recordAudit(tx, {
      workspaceId,
      actor: actorOf(auth, op.requestId),
      action: 'role.updated',
      targetType: 'role',
      targetId: id,
      metadata: { changed: Object.keys(change) },
      occurredAt: now,
    });
    const updated = await findRole(tx, workspaceId, id);
    if (!updated) throw new DomainError('not_found', 'role not found');
    return roleView(updated);
  });
});
