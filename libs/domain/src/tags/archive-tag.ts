import { z } from 'zod';
import { appendOutboxEvent, findTag, inTransaction, setTagArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';

export const archiveTagInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/tags/{id}`: archives the tag (sets `archived_at`, never deletes; lists leave it out, get still
 * shows it). Archiving an archived tag changes nothing. Writes `tag.archived` in the same transaction.
 */
export const archiveTag = defineProcedure('archiveTag', archiveTagInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'tag', rawId, 'write', 'tag');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'tag not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findTag(tx, workspaceId, id))) throw new DomainError('not_found', 'tag not found');
    if (await setTagArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: id, eventType: 'tag.archived', payload: { tagId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
