import { z } from 'zod';
import { disableWebhooks, findWebhook, insertTestDelivery, recordAudit, recoverFailedDeliveries, updateWebhookIfRevision, type WebhookChanges } from '@workcell/db';
import { WEBHOOK_PREVIOUS_SECRET_DEFAULT_SECONDS, WEBHOOK_RECOVERY_DAYS, WebhookUpdate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure, eventActorOf } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { isWebhookAdministrator, ownerOf } from './access.js';
import { encryptSigningSecret, generateSigningSecret } from './secret.js';
import { versionedWebhook, webhookDescription, webhookEventTypes, webhookNotFound, webhookUrl, type WebhookView } from './view.js';

export const updateWebhookInput = z.object({ id: z.string().max(64), ...WebhookUpdate.shape }).strict();

/** The PATCH answer: the subscription, with what the owner's actions produced (each present only when asked for). */
export type UpdatedWebhookView = WebhookView & { readonly signingSecret?: string; readonly recoveredDeliveries?: number; readonly testDeliveryId?: string };

const DAY_MS = 86_400_000;

const invalid = (pointer: string, message: string) => new DomainError('validation_failed', message, [{ pointer, message }]);

/** `recoverSince` as an instant within the recovery window (not in the future, at most WEBHOOK_RECOVERY_DAYS back). */
function recoveryStart(value: string | undefined, now: Date): Date | undefined {
  if (value === undefined) return undefined;
  const since = new Date(value);
  if (since.getTime() > now.getTime()) throw invalid('/recoverSince', 'recoverSince is in the future');
  if (now.getTime() - since.getTime() > WEBHOOK_RECOVERY_DAYS * DAY_MS) throw invalid('/recoverSince', `recoverSince reaches back at most ${WEBHOOK_RECOVERY_DAYS} days`);
  return since;
}

/**
 * `PATCH /v1/webhooks/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale). Only the
 * owning credential changes url, description, event types or status (`disabled` stops deliveries with reason
 * `owner` and ends its pending ones; `active` re-enables, clears the reason and closes the breaker), and takes the
 * actions (docs/webhooks.md "Delivery"), all in one transaction under the same compare-and-set:
 * - `rotateSigningSecret`: a new secret, answered once; the previous one signs too for
 *   `previousSecretExpiresInSeconds` (default one day, at most seven);
 * - `recoverSince`: every failed delivery since then is pending again with one more attempt (the dispatcher sends
 *   them oldest first at the subscription's fair share);
 * - `sendTestEvent`: one `webhook.test` delivery, on the retry schedule like any other.
 * Recovering or testing needs the subscription active after the request (re-enable in the same PATCH). The owner
 * check is part of the UPDATE statement, so another credential's subscription is 404. A workspace administrator
 * who does not own it may only disable it (reason `administrator`); anything else it sends is 403. Audited as
 * `webhook.updated` (with what changed and which actions ran) / `webhook.disabled`.
 */
export const updateWebhook = defineProcedure('updateWebhook', updateWebhookInput, async (op, input): Promise<Versioned<UpdatedWebhookView>> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw webhookNotFound();
  const id = input.id.toLowerCase();
  const url = input.url === undefined ? undefined : webhookUrl(input.url, op.config);
  const eventTypes = input.eventTypes === undefined ? undefined : webhookEventTypes(input.eventTypes);
  const description = webhookDescription(input.description);
  const revision = expectedRevision(input.expectedVersion);
  const actor = actorOf(auth, op.requestId);
  const now = op.now();
  const rotate = input.rotateSigningSecret === true;
  if (input.previousSecretExpiresInSeconds !== undefined && !rotate) throw invalid('/previousSecretExpiresInSeconds', 'previousSecretExpiresInSeconds goes with rotateSigningSecret: true');
  const recoverSince = recoveryStart(input.recoverSince, now);
  const sendTest = input.sendTestEvent === true;
  const actions = input.rotateSigningSecret !== undefined || recoverSince !== undefined || input.sendTestEvent !== undefined;
  return op.transaction(async (tx) => {
    const owned = await findWebhook(tx, workspaceId, id, ownerOf(auth));
    if (!owned) return disableAsAdministrator();
    // A status the subscription already has changes nothing about it (an administrator's reason stays).
    const status: WebhookChanges['status'] =
      input.status === undefined || (input.status === 'active') === (owned.status === 'active')
        ? undefined
        : input.status === 'active'
          ? { to: 'active' }
          : { to: 'disabled', reason: 'owner', at: now };
    const activeAfter = (status?.to ?? owned.status) === 'active';
    if (!activeAfter && (recoverSince !== undefined || sendTest)) {
      const pointer = recoverSince !== undefined ? '/recoverSince' : '/sendTestEvent';
      throw invalid(pointer, 'the subscription is disabled: re-enable it in the same request (status "active") to recover deliveries or send a test event');
    }
    const secret = rotate ? generateSigningSecret() : undefined;
    const rotateSecret =
      secret === undefined
        ? undefined
        : {
            ...encryptSigningSecret(op.config, workspaceId, secret),
            previousExpiresAt: new Date(now.getTime() + (input.previousSecretExpiresInSeconds ?? WEBHOOK_PREVIOUS_SECRET_DEFAULT_SECONDS) * 1000),
          };
    const change = { url, description, eventTypes, status, rotateSecret };
    const outcome = await updateWebhookIfRevision(tx, workspaceId, id, auth.credential.id, revision, change);
    if (outcome !== 'updated') throw casFailure(outcome, 'webhook');
    const recoveredDeliveries = recoverSince === undefined ? undefined : await recoverFailedDeliveries(tx, workspaceId, id, recoverSince);
    const attemptsAllowed = op.config.webhooks.retryScheduleMs.length + 1;
    const testDeliveryId = sendTest
      ? await insertTestDelivery(tx, { workspaceId, subscriptionId: id, ownerCredentialId: auth.credential.id, attemptsAllowed, requestId: op.requestId, actor: eventActorOf(op), now })
      : undefined;
    const changed = Object.entries({ url, description, eventTypes, status: input.status })
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    const metadata = {
      changed,
      ...(status ? { statusTo: status.to } : {}),
      ...(actions
        ? { actions: { rotatedSigningSecret: rotate, recoveredDeliveries: recoveredDeliveries ?? null, recoverSince: recoverSince?.toISOString() ?? null, testDeliveryId: testDeliveryId ?? null } }
        : {}),
    };
    await recordAudit(tx, { workspaceId, actor, action: 'webhook.updated', targetType: 'webhook', targetId: id, metadata, occurredAt: now });
    const updated = versionedWebhook((await findWebhook(tx, workspaceId, id, ownerOf(auth)))!, now);
    const produced = {
      ...(secret === undefined ? {} : { signingSecret: secret }),
      ...(recoveredDeliveries === undefined ? {} : { recoveredDeliveries }),
      ...(testDeliveryId === undefined ? {} : { testDeliveryId }),
    };
    return { ...updated, resource: { ...updated.resource, ...produced } };

    async function disableAsAdministrator(): Promise<Versioned<UpdatedWebhookView>> {
      const administrator = await isWebhookAdministrator(op, auth);
      const row = administrator ? await findWebhook(tx, workspaceId, id, { administrator: true }) : null;
      if (!row) throw webhookNotFound();
      if (input.status !== 'disabled' || url !== undefined || input.description !== undefined || eventTypes !== undefined || actions || input.previousSecretExpiresInSeconds !== undefined) {
        throw new DomainError(
          'forbidden',
          'an administrator may only disable a subscription another credential owns (send only expectedVersion and status "disabled"); its url, description, event types, secret, deliveries and re-enabling belong to its owner',
        );
      }
      if (row.revision !== revision) throw casFailure('version_conflict', 'webhook');
      // Already disabled: nothing changes (idempotent), the first reason stays.
      if (row.status !== 'disabled') {
        const disabled = await disableWebhooks(tx, { workspaceId, selection: { ids: [id], expectedRevision: revision }, reason: 'administrator', actor, now });
        if (disabled.length === 0) throw casFailure('version_conflict', 'webhook');
      }
      return versionedWebhook((await findWebhook(tx, workspaceId, id, { administrator: true }))!, now);
    }
  });
});
