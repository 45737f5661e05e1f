import { z } from 'zod';
import { appendOutboxEvent, findContactGroup, inTransaction, setContactGroupArchived } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { type ContactGroupView, versionedContactGroup } from './view.js';

export const restoreContactGroupInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `POST /v1/contact-groups/{id}/restore`: clears `archived_at` (no change when not archived); writes `contact_group.restored`. */
export const restoreContactGroup = defineProcedure('restoreContactGroup', restoreContactGroupInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<ContactGroupView>> => {
  requireGrant(auth, 'contact_group', rawId, 'write', 'contact group');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'contact group not found');
  const id = rawId.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    if (!(await findContactGroup(tx, workspaceId, id))) throw new DomainError('not_found', 'contact group not found');
    const restored = await setContactGroupArchived(tx, workspaceId, id, null);
    const row = await findContactGroup(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'contact group not found');
    const result = versionedContactGroup(row);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'contact_group', aggregateId: id, eventType: 'contact_group.restored', payload: { contactGroup: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
