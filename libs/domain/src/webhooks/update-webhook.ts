import { z } from 'zod';
import { disableWebhooks, findWebhook, inTransaction, recordAudit, updateWebhookIfRevision, type WebhookChanges } from '@workcell/db';
import { WebhookUpdate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { isWebhookAdministrator, ownerOf } from './access.js';
import { versionedWebhook, webhookDescription, webhookEventTypes, webhookNotFound, webhookUrl, type WebhookView } from './view.js';

export const updateWebhookInput = z.object({ ...writeInput, id: z.string().max(64), ...WebhookUpdate.shape }).strict();

/**
 * `PATCH /v1/webhooks/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale). Only the
 * owning credential changes url, description, event types or status (`disabled` stops deliveries with reason
 * `owner`; `active` re-enables and clears the reason); the owner check is part of the UPDATE statement, so
 * another credential's subscription is 404. A workspace administrator who does not own it may only disable it
 * (reason `administrator`); anything else it sends is 403. Audited as `webhook.updated` / `webhook.disabled`.
 */
export const updateWebhook = defineProcedure('updateWebhook', updateWebhookInput, async (ctx, input): Promise<Versioned<WebhookView>> => {
  const { auth } = input;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw webhookNotFound();
  const id = input.id.toLowerCase();
  const url = input.url === undefined ? undefined : webhookUrl(input.url, ctx.config);
  const eventTypes = input.eventTypes === undefined ? undefined : webhookEventTypes(input.eventTypes);
  const description = webhookDescription(input.description);
  const revision = expectedRevision(input.expectedVersion);
  const actor = actorOf(auth, input.requestId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const owned = await findWebhook(tx, workspaceId, id, ownerOf(auth));
    if (!owned) return disableAsAdministrator();
    // A status the subscription already has changes nothing about it (an administrator's reason stays).
    const status: WebhookChanges['status'] =
      input.status === undefined || (input.status === 'active') === (owned.status === 'active')
        ? undefined
        : input.status === 'active'
          ? { to: 'active' }
          : { to: 'disabled', reason: 'owner', at: now };
    const change = { url, description, eventTypes, status };
    const outcome = await updateWebhookIfRevision(tx, workspaceId, id, auth.credential.id, revision, change);
    if (outcome !== 'updated') throw casFailure(outcome, 'webhook');
    const changed = Object.entries({ ...change, status: input.status }).filter(([, v]) => v !== undefined).map(([k]) => k);
    await recordAudit(tx, { workspaceId, actor, action: 'webhook.updated', targetType: 'webhook', targetId: id, metadata: { changed, ...(status ? { statusTo: status.to } : {}) }, occurredAt: now });
    return versionedWebhook((await findWebhook(tx, workspaceId, id, ownerOf(auth)))!);

    async function disableAsAdministrator(): Promise<Versioned<WebhookView>> {
      const administrator = await isWebhookAdministrator(ctx, auth);
      const row = administrator ? await findWebhook(tx, workspaceId, id, { administrator: true }) : null;
      if (!row) throw webhookNotFound();
      if (input.status !== 'disabled' || url !== undefined || input.description !== undefined || eventTypes !== undefined) {
        throw new DomainError(
          'forbidden',
          'an administrator may only disable a subscription another credential owns (send only expectedVersion and status "disabled"); its url, description, event types and re-enabling belong to its owner',
        );
      }
      if (row.revision !== revision) throw casFailure('version_conflict', 'webhook');
      // Already disabled: nothing changes (idempotent), the first reason stays.
      if (row.status !== 'disabled') {
        const disabled = await disableWebhooks(tx, { workspaceId, selection: { ids: [id], expectedRevision: revision }, reason: 'administrator', actor, now });
        if (disabled.length === 0) throw casFailure('version_conflict', 'webhook');
      }
      return versionedWebhook((await findWebhook(tx, workspaceId, id, { administrator: true }))!);
    }
  });
});
