import { z } from 'zod';
import { countOrganizationPeople, findContact, updateContactIfRevision } from '@workcell/db';
import { ContactUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { addressOf, assertContactReferences, type ContactView, versionedContact } from './view.js';

export const updateContactInput = z.object({ id: z.string().max(64), ...ContactUpdate.shape }).strict();

/**
 * `PATCH /v1/contacts/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * the given attributes; `contactGroupIds` replaces the whole set. References are checked as on create
 * (400 with a pointer); turning an organization that people belong to into a person is 409 conflict.
 * Writes `contact.updated` in the same transaction.
 */
export const updateContact = defineProcedure('updateContact', updateContactInput, async (op, input): Promise<Versioned<ContactView>> => {
  requireGrant(op.auth, 'contact', input.id, 'write', 'contact');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'contact not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findContact(tx, workspaceId, id);
    if (!current) throw new DomainError('not_found', 'contact not found');
    const kind = input.kind ?? current.kind;
    const organizationId = input.organizationId === undefined ? current.organizationId : (input.organizationId?.toLowerCase() ?? null);
    const organizationPointer = input.organizationId === undefined ? '/kind' : '/organizationId';
    const checkOrganization = input.organizationId !== undefined || input.kind !== undefined;
    const contactGroupIds = await assertContactReferences(tx, workspaceId, { id, kind, organizationId: checkOrganization ? organizationId : null, organizationPointer }, input.contactGroupIds);
    if (current.kind === 'organization' && kind === 'person' && (await countOrganizationPeople(tx, workspaceId, id)) > 0) {
      throw new DomainError('conflict', 'people belong to this organization; move them to another organization before making it a person', [
        { pointer: '/kind', message: 'the organization has people' },
      ]);
    }
    const change = {
      ...(input.kind === undefined ? {} : { kind: input.kind }),
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.email === undefined ? {} : { email: input.email }),
      ...(input.phone === undefined ? {} : { phone: input.phone }),
      ...(input.organizationId === undefined ? {} : { organizationId }),
      ...(input.address === undefined ? {} : { address: addressOf(input.address) ?? null }),
      ...(contactGroupIds === undefined ? {} : { contactGroupIds }),
    };
    const outcome = await updateContactIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'contact');
    const updated = await findContact(tx, workspaceId, id);
    if (!updated) throw new DomainError('not_found', 'contact not found');
    const result = versionedContact(updated);
    await op.emit(tx, resourceEvent(op, { type: 'contact', id, action: 'updated', view: { ...result.resource }, changed: Object.keys(change), at: now }));
    return result;
  });
});
