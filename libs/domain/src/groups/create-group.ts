import { z } from 'zod';
import { completeHeldKey, insertGroup } from '@workcell/db';
import { GroupCreate } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type GroupView, groupView } from './view.js';

export const createGroupInput = z.object({ ...GroupCreate.shape }).strict();

/** `POST /v1/groups`: a new, empty group. Audited. */
export const createGroup = defineProcedure('createGroup', createGroupInput, async (op, input): Promise<GroupView> => {
  const { auth } = op;
  const now = op.now();
  return op.transaction(async (tx) => {
    const group = await insertGroup(tx, auth.workspaceId, { name: input.name, description: input.description ?? null });
    await recordOperationAudit(op, tx, { type: 'group', id: group.id, action: 'created', at: now });
    const result = groupView(group);
    await completeHeldKey(tx, op.idempotencyKey, auth.workspaceId, result);
    return result;
  });
});
