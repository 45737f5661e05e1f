import { z } from 'zod';
import { insertContact } from '@workcell/db';
import { ContactCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { addressOf, assertContactReferences, type ContactView, versionedContact } from './view.js';

export const createContactInput = z.object({ ...ContactCreate.shape }).strict();

/**
 * `POST /v1/contacts`: a new contact (revision 1). Its contact groups and organization must be of the
 * caller's workspace (400 with a pointer otherwise). Writes `contact.created` in the same transaction.
 */
export const createContact = defineProcedure('createContact', createContactInput, async (op, input): Promise<Versioned<ContactView>> => {
  requireTypeGrant(op.auth, 'contact', 'write', 'contacts');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const organizationId = input.organizationId?.toLowerCase() ?? null;
    const contactGroupIds = (await assertContactReferences(tx, workspaceId, { kind: input.kind, organizationId, organizationPointer: '/organizationId' }, input.contactGroupIds)) ?? [];
    const row = await insertContact(tx, workspaceId, {
      kind: input.kind,
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      organizationId,
      address: addressOf(input.address) ?? null,
      contactGroupIds,
    });
    const result = versionedContact(row);
    await op.emit(tx, resourceEvent(op, { type: 'contact', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
