import { z } from 'zod';
import { appendOutboxEvent, findContactGroup, inTransaction, setContactGroupArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';

export const archiveContactGroupInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/contact-groups/{id}`: archives the group (sets `archived_at`, never deletes; its children and
 * member links stay). Archiving an archived group changes nothing. Writes `contact_group.archived` in the
 * same transaction as the change.
 */
export const archiveContactGroup = defineProcedure('archiveContactGroup', archiveContactGroupInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'contact_group', rawId, 'write', 'contact group');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'contact group not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findContactGroup(tx, workspaceId, id))) throw new DomainError('not_found', 'contact group not found');
    if (await setContactGroupArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'contact_group', aggregateId: id, eventType: 'contact_group.archived', payload: { contactGroupId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
