import { z } from 'zod';
import { appendOutboxEvent, findContact, inTransaction, setContactArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { type ContactView, versionedContact } from './view.js';

export const restoreContactInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `POST /v1/contacts/{id}/restore`: clears `archived_at`. Restoring an unarchived contact changes nothing.
 * Writes `contact.restored` in the same transaction as the change.
 */
export const restoreContact = defineProcedure('restoreContact', restoreContactInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<ContactView>> => {
  requireGrant(auth, 'contact', rawId, 'write', 'contact');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'contact not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findContact(tx, workspaceId, id))) throw new DomainError('not_found', 'contact not found');
    const restored = await setContactArchived(tx, workspaceId, id, null);
    const row = await findContact(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'contact not found');
    const result = versionedContact(row);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'contact', aggregateId: id, eventType: 'contact.restored', payload: { contact: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
