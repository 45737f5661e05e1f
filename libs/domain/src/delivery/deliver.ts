import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { disableWebhooks, findLegacyWebhook, findOutboxEvent, inTransaction, loadDeliveryWork, nextAttemptOf, recordDeliveryAttempt } from '@workcell/db';
import { SYSTEM_ACTOR } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';
import { decryptSigningSecret } from '../webhooks/secret.js';
import { legacyBody, signedBody } from './body.js';
import { type AttemptFailure, postJson, type PostOutcome } from './http.js';
import type { AppConfig } from '@workcell/config';
import { endSpan, SpanKind, startChildSpan, webhookDeliveryDuration, webhookDeliveryFailures } from '@workcell/telemetry';

/**
 * One attempt's POST, measured (webhook_delivery_duration_seconds, webhook_delivery_failures_total by failure class)
 * and, inside a traced job or first attempt, a client span of it.
 */
async function deliveryPost(config: AppConfig, generation: 'v0' | 'v1', target: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  const span = startChildSpan('webhook.deliver', SpanKind.CLIENT, { 'workcell.webhook.generation': generation });
  const outcome = await postJson(config, target, body, headers);
  webhookDeliveryDuration.labels(generation, outcome.failure === null ? 'succeeded' : 'failed').observe(outcome.timeMs / 1000);
  if (outcome.failure !== null) webhookDeliveryFailures.labels(generation, outcome.failure).inc();
  endSpan(span, outcome.failure === null ? undefined : new Error(outcome.failure), { 'http.response.status_code': outcome.statusCode ?? 0 });
  return outcome;
}

/** Which attempt of its job a handler runs (1-based) and how many are allowed (the job catalog's JobRun). */
const runInput = { attempt: z.number().int().min(1), attempts: z.number().int().min(1) };

/**
 * Thrown after a failed attempt recorded itself, to have the delivery retried: BullMQ retries the job after its
 * backoff; the in-process first attempt (first-attempts.ts) queues attempt `attempt + 1` after `delayMs`.
 */
export class DeliveryRetry extends Error {
  constructor(
    message: string,
    readonly attempt = 0,
    readonly delayMs = 0,
  ) {
    super(message);
  }
}

/** When the attempt after `attempt` runs: exponential backoff from WEBHOOK_RETRY_BASE_MS (base · 2^(attempt−1)). */
export function retryDelayMs(retryBaseMs: number, attempt: number): number {
  return retryBaseMs * 2 ** (attempt - 1);
}

/**
 * The queue job of a delivery whose next attempt is `attempt`: BullMQ runs it at most for the attempts left, and
 * its exponential backoff (delay · 2^(run−1) after its run-th failure) starts at this attempt's delay, so the
 * job's retries keep retryDelayMs whichever attempt the job starts at (1 when the in-process pool was full, 2
 * after a failed in-process first attempt, any on revival).
 */
export function queuedDeliveryOptions(webhooks: { attempts: number; retryBaseMs: number }, attempt: number): { attempts: number; backoffMs: number } {
  return { attempts: Math.max(1, webhooks.attempts - attempt + 1), backoffMs: retryDelayMs(webhooks.retryBaseMs, attempt) };
}

function describe(outcome: PostOutcome): string | null {
  return outcome.failure === null ? null : (outcome.error ?? outcome.failure).slice(0, 500);
}

/** 410 Gone: the receiver says the endpoint is gone for good (docs/webhooks.md "Webhooks"). */
const GONE = 410;

/**
 * `attempts`: how many attempts a delivery gets in all (WEBHOOK_DELIVERY_ATTEMPTS); `lastRun`: the caller cannot
 * retry after this one (the queue job's last run), so a failure ends the delivery rather than leaving it pending.
 */
export const deliverWebhookInput = z.object({ workspaceId: z.uuid(), deliveryId: z.uuid(), attempts: z.number().int().min(1), lastRun: z.boolean() }).strict();

/**
 * One attempt of a signed v2 delivery: POSTs the event signed with the subscription's secret (Standard Webhooks:
 * `webhook-id` = event id, the same on every retry, so receivers deduplicate; `webhook-timestamp` = this attempt;
 * `webhook-signature` = `v1,<base64 HMAC-SHA256>`). 2xx ends it succeeded; otherwise the attempt is recorded
 * with its next retry time and its failure class, and DeliveryRetry is thrown so the queue retries; the last
 * failed attempt ends it failed. A refused target (SSRF rule) ends it failed at once; a 410 Gone ends it failed
 * and disables the subscription (reason `receiver_gone`, audited, with an event) in the same transaction, with
 * no retry. A subscription that was removed or disabled meanwhile ends it failed without sending.
 * Which attempt this is comes from the row (nextAttemptOf), not from the caller: the worker makes the first one
 * in-process and the queue the retries, and both number one sequence 1..`attempts`.
 */
export const deliverWebhook = defineProcedure('deliverWebhook', deliverWebhookInput, async (ctx, input): Promise<{ status: string }> => {
  const { workspaceId, deliveryId, attempts, lastRun } = input;
  // The row, its subscription's target and its event in one statement.
  const delivery = await loadDeliveryWork(ctx.database, workspaceId, deliveryId);
  if (!delivery || delivery.status !== 'pending') return { status: delivery?.status ?? 'missing' };
  const attempt = nextAttemptOf(delivery);
  const { target, event } = delivery;
  const end = async (status: 'succeeded' | 'failed', outcome: PostOutcome | null, error: string | null, failureReason: AttemptFailure | 'subscription_removed' | 'subscription_disabled' | null = outcome?.failure ?? null) => {
    const now = ctx.now();
    const attemptRecord = {
      attempt: outcome ? attempt : delivery.attempt,
      status,
      responseStatusCode: outcome?.statusCode ?? null,
      responseTimeMs: outcome?.timeMs ?? null,
      error,
      failureReason,
      nextRetryAt: null,
      deliveredAt: status === 'succeeded' ? now : null,
    };
    if (outcome?.statusCode !== GONE) {
      // One statement: nothing else to commit with it.
      await recordDeliveryAttempt(ctx.database, workspaceId, deliveryId, attemptRecord);
      return { status };
    }
    await inTransaction(ctx.database, async (tx) => {
      await recordDeliveryAttempt(tx, workspaceId, deliveryId, attemptRecord);
      await disableWebhooks(tx, { workspaceId, selection: { ids: [delivery.subscriptionId] }, reason: 'receiver_gone', actor: SYSTEM_ACTOR, now });
    });
    return { status };
  };
  if (!target || !event) return end('failed', null, 'the subscription or event no longer exists', 'subscription_removed');
  if (target.archivedAt !== null) return end('failed', null, 'the subscription was removed', 'subscription_removed');
  if (target.status !== 'active') return end('failed', null, 'the subscription is disabled', 'subscription_disabled');

  const secret = decryptSigningSecret(ctx.config, workspaceId, { ciphertext: target.secretCiphertext, keyId: target.secretKeyId });
  const body = signedBody(event);
  const sentAt = ctx.now();
  const signature = new Webhook(secret).sign(event.id, sentAt, body);
  const headers = {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signature,
    'webhook-sequence': event.sequence.toString(),
  };
  const outcome = await deliveryPost(ctx.config, 'v1', target.url, body, headers);
  const error = describe(outcome);
  if (error === null) return end('succeeded', outcome, null);
  if (outcome.refused || outcome.statusCode === GONE || attempt >= attempts || lastRun) return end('failed', outcome, error);
  const delayMs = retryDelayMs(ctx.config.webhooks.retryBaseMs, attempt);
  await recordDeliveryAttempt(ctx.database, workspaceId, deliveryId, {
    attempt,
    status: 'pending',
    responseStatusCode: outcome.statusCode,
    responseTimeMs: outcome.timeMs,
    error,
    failureReason: outcome.failure,
    nextRetryAt: new Date(ctx.now().getTime() + delayMs),
    deliveredAt: null,
  });
  throw new DeliveryRetry(`delivery ${deliveryId} attempt ${attempt} failed: ${error}`, attempt, delayMs);
});

export const deliverLegacyWebhookInput = z.object({ workspaceId: z.uuid(), legacyWebhookId: z.uuid(), eventId: z.uuid(), ...runInput }).strict();

/**
 * One attempt of an unsigned legacy v0 delivery (no history table: the queue's job is its record). Same POST
 * and retry policy as v2, without signature headers; a webhook removed meanwhile is not sent to.
 */
export const deliverLegacyWebhook = defineProcedure('deliverLegacyWebhook', deliverLegacyWebhookInput, async (ctx, input): Promise<{ status: string; statusCode?: number | null }> => {
  const { workspaceId, legacyWebhookId, eventId, attempt, attempts } = input;
  const webhook = await findLegacyWebhook(ctx.database, workspaceId, legacyWebhookId);
  const event = await findOutboxEvent(ctx.database, workspaceId, eventId);
  if (!webhook || webhook.archivedAt !== null || !event) return { status: 'skipped' };
  const outcome = await deliveryPost(ctx.config, 'v0', webhook.url, legacyBody(event), {});
  const error = describe(outcome);
  if (error === null) return { status: 'succeeded', statusCode: outcome.statusCode };
  if (outcome.refused || attempt >= attempts) return { status: 'failed', statusCode: outcome.statusCode };
  throw new DeliveryRetry(`legacy delivery to ${legacyWebhookId} attempt ${attempt} failed: ${error}`);
});
