import { z } from 'zod';
import { archiveGroup, inAuthorizationTransaction } from '@workcell/db';
import { recordOperationAudit } from '../identity/actor.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

export const deleteGroupInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/groups/{id}`: archives the group (never deletes it). Its membership links stay for the audit
 * trail, but an archived group is 404 everywhere and no member lists it in groupIds any more. Audited.
 */
export const deleteGroup = defineProcedure('deleteGroup', deleteGroupInput, async (op, input): Promise<{ archived: true }> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'group not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return inAuthorizationTransaction(op.database, workspaceId, async (tx) => {
    if (!(await archiveGroup(tx, workspaceId, id, now))) throw new DomainError('not_found', 'group not found');
    await recordOperationAudit(op, tx, { type: 'group', id, action: 'archived', at: now });
    return { archived: true as const };
  });
});
