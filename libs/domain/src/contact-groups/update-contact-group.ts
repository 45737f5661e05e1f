import { z } from 'zod';
import { contactGroupAncestors, findContactGroup, lockContactGroupHierarchy, updateContactGroupIfRevision } from '@workcell/db';
import { ContactGroupUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertParent, type ContactGroupView, versionedContactGroup } from './view.js';

export const updateContactGroupInput = z.object({ id: z.string().max(64), ...ContactGroupUpdate.shape }).strict();

function cycle(): DomainError {
  return new DomainError('hierarchy_cycle', 'a contact group cannot be moved under itself or one of its own descendants', [
    { pointer: '/parentId', message: 'the new parent is this group or one of its descendants' },
  ]);
}

/**
 * `PATCH /v1/contact-groups/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * renames and/or moves the group. Moving it under itself or one of its descendants is 409 hierarchy_cycle
 * and changes nothing. A move holds the workspace's hierarchy lock from before the cycle check until
 * commit, so two concurrent moves that would together form a cycle cannot both succeed. Writes
 * `contact_group.moved` (parent changed) and/or `contact_group.updated` (name changed) in the same transaction.
 */
export const updateContactGroup = defineProcedure('updateContactGroup', updateContactGroupInput, async (op, input): Promise<Versioned<ContactGroupView>> => {
  requireGrant(op.auth, 'contact_group', input.id, 'write', 'contact group');
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'contact group not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    if (input.parentId !== undefined) await lockContactGroupHierarchy(tx, workspaceId);
    const current = await findContactGroup(tx, workspaceId, id);
    if (!current) throw new DomainError('not_found', 'contact group not found');
    let parentId: string | null | undefined = undefined;
    if (input.parentId === null) parentId = null;
    else if (input.parentId !== undefined) {
      if (input.parentId.toLowerCase() === id) throw cycle();
      parentId = await assertParent(tx, workspaceId, input.parentId);
      const ancestors = (await contactGroupAncestors(tx, workspaceId, [parentId])).get(parentId) ?? [];
      if (ancestors.includes(id)) throw cycle();
    }
    const change = { ...(input.name === undefined ? {} : { name: input.name }), ...(parentId === undefined ? {} : { parentId }) };
    const outcome = await updateContactGroupIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'contact group');
    const updated = await findContactGroup(tx, workspaceId, id);
    if (!updated) throw new DomainError('not_found', 'contact group not found');
    const result = versionedContactGroup(updated);
    const contactGroup = { ...result.resource };
    if (parentId !== undefined && parentId !== current.parentId) {
      await op.emit(tx, {
        aggregateType: 'contact_group',
        aggregateId: id,
        eventType: 'contact_group.moved',
        payload: { contactGroup, fromParentId: current.parentId, toParentId: parentId, requestId },
        occurredAt: now,
      });
    }
    if (input.name !== undefined || parentId === undefined || parentId === current.parentId) {
      await op.emit(tx, resourceEvent(op, { type: 'contact_group', id, action: 'updated', view: contactGroup, changed: Object.keys(change), at: now }));
    }
    return result;
  });
});
