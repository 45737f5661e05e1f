import { z } from 'zod';
import { appendOutboxEvent, findList, inTransaction, setListArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { type ListView, versionedList } from './view.js';

export const restoreListInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `POST /v1/lists/{id}/restore`: clears `archived_at`. Restoring an unarchived list changes nothing. Writes
 * `list.restored` in the same transaction as the change.
 */
export const restoreList = defineProcedure('restoreList', restoreListInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<ListView>> => {
  requireGrant(auth, 'list', rawId, 'write', 'list');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'list not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findList(tx, workspaceId, id))) throw new DomainError('not_found', 'list not found');
    const restored = await setListArchived(tx, workspaceId, id, null);
    const row = await findList(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'list not found');
    const result = versionedList(row);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'list', aggregateId: id, eventType: 'list.restored', payload: { list: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
