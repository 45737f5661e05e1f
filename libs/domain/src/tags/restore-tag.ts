import { z } from 'zod';
import { appendOutboxEvent, findTag, inTransaction, setTagArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { type TagView, versionedTag } from './view.js';

export const restoreTagInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `POST /v1/tags/{id}/restore`: clears `archived_at`. Restoring an unarchived tag changes nothing. Writes
 * `tag.restored` in the same transaction as the change.
 */
export const restoreTag = defineProcedure('restoreTag', restoreTagInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<TagView>> => {
  requireGrant(auth, 'tag', rawId, 'write', 'tag');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'tag not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findTag(tx, workspaceId, id))) throw new DomainError('not_found', 'tag not found');
    const restored = await setTagArchived(tx, workspaceId, id, null);
    const row = await findTag(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'tag not found');
    const result = versionedTag(row);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: id, eventType: 'tag.restored', payload: { tag: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
