import { z } from 'zod';
import { appendOutboxEvent, findList, inTransaction, setListArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { writeInput } from '../kernel/inputs.js';

export const archiveListInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/lists/{id}`: archives the list (sets `archived_at`, never deletes; lists leave it out, get still
 * shows it). Archiving an archived list changes nothing. Writes `list.archived` in the same transaction.
 */
export const archiveList = defineProcedure('archiveList', archiveListInput, async (ctx, { auth, requestId, id: rawId }): Promise<{ archived: true }> => {
  requireGrant(auth, 'list', rawId, 'write', 'list');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'list not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findList(tx, workspaceId, id))) throw new DomainError('not_found', 'list not found');
    if (await setListArchived(tx, workspaceId, id, now)) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'list', aggregateId: id, eventType: 'list.archived', payload: { listId: id, archivedAt: now.toISOString(), requestId }, occurredAt: now });
    }
    return { archived: true as const };
  });
});
