import { z } from 'zod';
import { findWebhook, inTransaction, recordAudit, updateWebhookIfRevision } from '@workcell/db';
import { actorOf } from '../identity/actor.js';
import { casFailure, expectedRevision, isUuid } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../roles/permission-model.js';
import { versionedWebhook, webhookAttributes, webhookEventTypes, webhookNotFound, webhookUrl, type WebhookView } from './view.js';

export const updateWebhookInput = z
  .object({
    ...writeInput,
    id: z.string().max(64),
    expectedVersion: z.string().min(1).max(128),
    url: webhookAttributes.url.optional(),
    description: webhookAttributes.description,
    eventTypes: webhookAttributes.eventTypes.optional(),
    status: z.enum(['active', 'disabled']).optional(),
  })
  .strict();

/**
 * `PATCH /v1/webhooks/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale): url,
 * description, event types, or status (`disabled` stops deliveries until `active` again). Audited as
 * `webhook.updated`. Any webhooks:write credential of the workspace may change it; the owner stays the creator.
 */
export const updateWebhook = defineProcedure('updateWebhook', updateWebhookInput, async (ctx, input): Promise<Versioned<WebhookView>> => {
  const { auth } = input;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw webhookNotFound();
  const id = input.id.toLowerCase();
  const url = input.url === undefined ? undefined : webhookUrl(input.url);
  const eventTypes = input.eventTypes === undefined ? undefined : webhookEventTypes(input.eventTypes);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const change = { url, description: input.description, eventTypes, status: input.status };
    const outcome = await updateWebhookIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'webhook');
    const changed = Object.entries(change).filter(([, v]) => v !== undefined).map(([k]) => k);
    await recordAudit(tx, { workspaceId, actor: actorOf(auth, input.requestId), action: 'webhook.updated', targetType: 'webhook', targetId: id, metadata: { changed }, occurredAt: now });
    return versionedWebhook((await findWebhook(tx, workspaceId, id))!);
  });
});
