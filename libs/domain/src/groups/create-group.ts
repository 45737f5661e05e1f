import { z } from 'zod';
import { completeHeldKey, insertGroup, inTransaction, recordAudit } from '@workcell/db';
import { GroupCreate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';
import { writeInput } from '../kernel/inputs.js';
import { type GroupView, groupView } from './view.js';

export const createGroupInput = z.object({ ...writeInput, ...GroupCreate.shape }).strict();

/** `POST /v1/groups`: a new, empty group. Audited. */
export const createGroup = defineProcedure('createGroup', createGroupInput, async (ctx, input): Promise<GroupView> => {
  const { auth } = input;
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const group = await insertGroup(tx, auth.workspaceId, { name: input.name, description: input.description ?? null });
    await recordAudit(tx, { workspaceId: auth.workspaceId, actor: actorOf(auth, input.requestId), action: 'group.created', targetType: 'group', targetId: group.id, occurredAt: now });
    const result = groupView(group);
    await completeHeldKey(tx, auth.workspaceId, result);
    return result;
  });
});
