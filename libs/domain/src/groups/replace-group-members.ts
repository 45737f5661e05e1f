import { z } from 'zod';
import { findGroup, inAuthorizationTransaction, lockExistingMemberIds, replaceGroupMemberLinks, updateGroupIfRevision } from '@workcell/db';
import { GroupMembersReplace } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertAllFound, assertIdList } from '../roles/permission-model.js';

import { type GroupView, groupView } from './view.js';

export const replaceGroupMembersInput = z.object({ id: z.string().max(64), ...GroupMembersReplace.shape }).strict();

/**
 * `PUT /v1/groups/{id}/members` (compare-and-set on the group's version, all or nothing): the group's whole
 * membership. Every id must name a (not removed) member of the workspace, once: otherwise 400 with a
 * pointer into memberIds, and nothing changes. Members who stay keep their addedAt. One transaction with
 * its audit event.
 */
export const replaceGroupMembers = defineProcedure('replaceGroupMembers', replaceGroupMembersInput, async (op, input): Promise<GroupView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'group not found');
  const id = input.id.toLowerCase();
  assertIdList(input.memberIds, '/memberIds', 'member');
  const memberIds = input.memberIds.map((m) => m.toLowerCase());
  const now = op.now();
  return inAuthorizationTransaction(op.database, workspaceId, async (tx) => {
    // The compare-and-set comes first: it row-locks the group, so concurrent replacements queue behind it.
    const outcome = await updateGroupIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), {});
    if (outcome !== 'updated') throw casFailure(outcome, 'group');
    assertAllFound(memberIds, await lockExistingMemberIds(tx, workspaceId, memberIds), '/memberIds', 'member');
    const { added, removed } = await replaceGroupMemberLinks(tx, workspaceId, id, memberIds);
    await recordOperationAudit(op, tx, { type: 'group', id, action: 'members_replaced', metadata: { added, removed }, at: now });
    const group = await findGroup(tx, workspaceId, id);
    if (!group) throw new DomainError('not_found', 'group not found');
    return groupView(group);
  });
});
