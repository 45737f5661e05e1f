import { z } from 'zod';
import { appendOutboxEvent, findContact, inTransaction, setContactArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';

export const archiveContactInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/contacts/{id}`: archives the contact (sets `archived_at`, never deletes; lists leave it out,
 * get still shows it). Archiving an archived contact changes nothing. Writes `contact.archived` in the same
 * transaction as the change.
 */
export const archiveContact = defineProcedure('archiveContact', archiveContactInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'contact', rawId, 'write', 'contact');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'contact not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findContact(tx, workspaceId, id))) throw new DomainError('not_found', 'contact not found');
    if (await setContactArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'contact', aggregateId: id, eventType: 'contact.archived', payload: { contactId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
