import { z } from 'zod';
import { insertContactGroup, lockContactGroupHierarchy } from '@workcell/db';
import { ContactGroupCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertParent, type ContactGroupView, versionedContactGroup } from './view.js';

export const createContactGroupInput = z.object({ ...ContactGroupCreate.shape }).strict();

/**
 * `POST /v1/contact-groups`: a new group, a root or under an unarchived group of the caller's workspace
 * (400 /parentId otherwise). Writes `contact_group.created` in the same transaction.
 */
export const createContactGroup = defineProcedure('createContactGroup', createContactGroupInput, async (op, input): Promise<Versioned<ContactGroupView>> => {
  requireTypeGrant(op.auth, 'contact_group', 'write', 'contact groups');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    let parentId: string | null = null;
    if (input.parentId !== undefined && input.parentId !== null) {
      await lockContactGroupHierarchy(tx, workspaceId);
      parentId = await assertParent(tx, workspaceId, input.parentId);
    }
    const row = await insertContactGroup(tx, workspaceId, { name: input.name, parentId });
    const result = versionedContactGroup(row);
    await op.emit(tx, resourceEvent(op, { type: 'contact_group', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
