import { z } from 'zod';
import { contactGroupAncestors, findContactGroup, lockContactGroupHierarchy, updateContactGroupIfRevision } from '@workcell/db';
import { ContactGroupUpdate } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { changeTreeGroup, type TreeGroupFamily } from '../kernel/tree-group-change.js';

import { assertParent, type ContactGroupView } from './view.js';

/** Contact groups' tree; a parent is any unarchived group of the workspace. */
const contactGroupTree: TreeGroupFamily = {
  type: 'contact_group',
  lock: lockContactGroupHierarchy,
  find: findContactGroup,
  ancestors: contactGroupAncestors,
  updateIfRevision: updateContactGroupIfRevision,
  parentOf: (tx, auth, rawParentId) => assertParent(tx, auth.workspaceId, rawParentId),
};

export const updateContactGroupInput = z.object({ id: z.string().max(64), ...ContactGroupUpdate.shape }).strict();

/**
 * `PATCH /v1/contact-groups/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * renames and/or moves the group. Moving it under itself or one of its descendants is 409 hierarchy_cycle
 * and changes nothing. A move holds the workspace's hierarchy lock from before the cycle check until
 * commit, so two concurrent moves that would together form a cycle cannot both succeed. Writes
 * `contact_group.moved` (parent changed) and/or `contact_group.updated` (name changed) in the same transaction.
 */
export const updateContactGroup = defineProcedure('updateContactGroup', updateContactGroupInput, async (op, input): Promise<Versioned<ContactGroupView>> => {
  requireGrant(op.auth, 'contact_group', input.id, 'write', 'contact group');
  if (!isUuid(input.id)) throw new DomainError('not_found', 'contact group not found');
  const id = input.id.toLowerCase();
  return changeTreeGroup(op, contactGroupTree, id, input);
});
