import { z } from 'zod';
import { findGroup, updateGroupIfRevision } from '@workcell/db';
import { GroupUpdate } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type GroupView, groupView } from './view.js';

export const updateGroupInput = z.object({ id: z.string().max(64), ...GroupUpdate.shape }).strict();

/** `PATCH /v1/groups/{id}` (compare-and-set): name and description. Audited. */
export const updateGroup = defineProcedure('updateGroup', updateGroupInput, async (op, input): Promise<GroupView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'group not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  const change = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.description === undefined ? {} : { description: input.description }),
  };
  return op.transaction(async (tx) => {
    const outcome = await updateGroupIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'group');
    await recordOperationAudit(op, tx, { type: 'group', id, action: 'updated', metadata: { changed: Object.keys(change) }, at: now });
    const group = await findGroup(tx, workspaceId, id);
    if (!group) throw new DomainError('not_found', 'group not found');
    return groupView(group);
  });
});
