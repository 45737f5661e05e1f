import { z } from 'zod';
import { insertLegacyWebhook } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { legacyWebhookAttributes, type LegacyWebhookView, legacyWebhookView, validateTargetUrl } from './view.js';

export const createLegacyWebhookInput = z.object({ ...legacyWebhookAttributes }).strict();

/**
 * v0 `POST /webhooks`: a new unsigned subscription of the team. Writes `legacy_webhook.created` in the same
 * transaction; the event leaves the URL out, because legacy receivers often carry a shared secret in it and the
 * change feed is readable more widely than the subscriptions.
 */
export const createLegacyWebhook = defineProcedure('createLegacyWebhook', createLegacyWebhookInput, async (op, input): Promise<LegacyWebhookView> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const url = validateTargetUrl(input.url, op.config);
  const events = [...new Set(input.events ?? [])];
  const now = op.now();
  return op.transaction(async (tx) => {
    const row = await insertLegacyWebhook(tx, workspaceId, { url, events });
    await op.emit(tx, resourceEvent(op, { type: 'legacy_webhook', id: row.id, action: 'created', view: { id: row.id, events }, at: now }));
    return legacyWebhookView(row);
  });
});
