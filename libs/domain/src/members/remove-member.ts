import { z } from 'zod';
import { inPermissionTransaction, markMemberRemoved } from '@workcell/db';
import { recordOperationAudit } from '../identity/actor.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertAdministrable, countAdministrators } from '../roles/permission-model.js';

export const removeMemberInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/members/{id}`: removes a member from the workspace without deleting anything audited. The
 * membership row stays (credentials, time entries and audit events refer to it) but is disabled, loses
 * every role and group, and is marked removed: from then on it is 404 everywhere and its personal access
 * tokens answer 401. Removing the last administrator is 409 last_administrator. Not reversible through
 * the API. One transaction with its audit event.
 */
export const removeMember = defineProcedure('removeMember', removeMemberInput, async (op, input): Promise<{ removed: true }> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'member not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return inPermissionTransaction(op.database, workspaceId, async (tx) => {
    const administrators = await countAdministrators(tx, workspaceId);
    const removed = await markMemberRemoved(tx, workspaceId, id, now);
    if (!removed) throw new DomainError('not_found', 'member not found');
    await assertAdministrable(tx, workspaceId, administrators);
    await recordOperationAudit(op, tx, { type: 'member', id, action: 'removed', metadata: { wasActive: removed.wasActive, rolesRemoved: removed.roleIds, groupsLeft: removed.groupIds }, at: now });
    return { removed: true as const };
  });
});
