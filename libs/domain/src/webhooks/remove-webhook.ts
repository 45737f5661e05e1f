import { z } from 'zod';
import { archiveWebhook, inTransaction, recordAudit } from '@workcell/db';
import { actorOf } from '../identity/actor.js';
import { isUuid } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { writeInput } from '../roles/permission-model.js';
import { webhookNotFound } from './view.js';

export const removeWebhookInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/webhooks/{id}`: archives the subscription; from then on no event is fanned out to it and its
 * pending deliveries end failed instead of being sent. Audited as `webhook.removed`.
 */
export const removeWebhook = defineProcedure('removeWebhook', removeWebhookInput, async (ctx, input): Promise<void> => {
  const { auth } = input;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw webhookNotFound();
  const id = input.id.toLowerCase();
  const now = ctx.now();
  await inTransaction(ctx.database, async (tx) => {
    if (!(await archiveWebhook(tx, workspaceId, id, now))) throw webhookNotFound();
    await recordAudit(tx, { workspaceId, actor: actorOf(auth, input.requestId), action: 'webhook.removed', targetType: 'webhook', targetId: id, occurredAt: now });
  });
});
