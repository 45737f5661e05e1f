import { z } from 'zod';
import { archiveLegacyWebhook } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';

import { legacyWebhookNotFound } from './view.js';

export const removeLegacyWebhookInput = z.object({ id: z.string().max(64) }).strict();

/**
 * v0 `DELETE /webhooks/{_id}`: the subscription is gone for v0 (404 from then on, never listed, never delivered
 * to) but archived, not deleted: the row stays for the delivery history and audit like every other archived
 * resource. Deleting it again is 404. Writes `legacy_webhook.deleted` in the same transaction.
 */
export const removeLegacyWebhook = defineProcedure('removeLegacyWebhook', removeLegacyWebhookInput, async (op, { id: rawId }): Promise<{ removed: true }> => {
  const { auth, requestId } = op;
  if (!isUuid(rawId)) throw legacyWebhookNotFound();
  const workspaceId = auth.workspaceId;
  const id = rawId.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    if (!(await archiveLegacyWebhook(tx, workspaceId, id, now))) throw legacyWebhookNotFound();
    await op.emit(tx, {
      aggregateType: 'legacy_webhook',
      aggregateId: id,
      eventType: 'legacy_webhook.deleted',
      payload: { legacyWebhookId: id, deletedAt: now.toISOString(), requestId },
      occurredAt: now,
    });
    return { removed: true as const };
  });
});
