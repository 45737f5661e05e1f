import { z } from 'zod';
import { archiveWebhook, findWebhook } from '@workcell/db';
import { recordOperationAudit } from '../identity/actor.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { isWebhookAdministrator } from './access.js';
import { webhookNotFound } from './view.js';

export const removeWebhookInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/webhooks/{id}`: the owner archives its subscription; from then on no event is fanned out to it and
 * its pending deliveries end failed instead of being sent. Audited as `webhook.removed`. Anyone else: 404; an
 * administrator, who sees it, gets 403 (it may only disable).
 */
export const removeWebhook = defineProcedure('removeWebhook', removeWebhookInput, async (op, input): Promise<void> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw webhookNotFound();
  const id = input.id.toLowerCase();
  const now = op.now();
  await op.transaction(async (tx) => {
    if (!(await archiveWebhook(tx, workspaceId, id, auth.credential.id, now))) {
      if ((await isWebhookAdministrator(op, auth)) && (await findWebhook(tx, workspaceId, id, { administrator: true }))) {
        throw new DomainError('forbidden', 'only the credential that owns a subscription may remove it; an administrator may disable it (PATCH status "disabled")');
      }
      throw webhookNotFound();
    }
    await recordOperationAudit(op, tx, { type: 'webhook', id, action: 'removed', at: now });
  });
});
