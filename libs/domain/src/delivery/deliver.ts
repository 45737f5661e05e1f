import { z } from 'zod';
import { findLegacyWebhook, findOutboxEvent } from '@workcell/db';
import { definePlatformProcedure } from '../kernel/procedure.js';
import { legacyBody } from './body.js';
import { postJson, type PostOutcome } from './http.js';
import type { AppConfig } from '@workcell/config';
import { endSpan, SpanKind, startChildSpan, webhookDeliveryDuration, webhookDeliveryFailures } from '@workcell/telemetry';

/**
 * One attempt's POST, measured (webhook_delivery_duration_seconds, webhook_delivery_failures_total by failure class)
 * and, inside a traced job or first attempt, a client span of it.
 */
export async function deliveryPost(config: AppConfig, generation: 'v0' | 'v1', target: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  const span = startChildSpan('webhook.deliver', SpanKind.CLIENT, { 'workcell.webhook.generation': generation });
  const outcome = await postJson(config, target, body, headers);
  webhookDeliveryDuration.labels(generation, outcome.failure === null ? 'succeeded' : 'failed').observe(outcome.timeMs / 1000);
  if (outcome.failure !== null) webhookDeliveryFailures.labels(generation, outcome.failure).inc();
  endSpan(span, outcome.failure === null ? undefined : new Error(outcome.failure), { 'http.response.status_code': outcome.statusCode ?? 0 });
  return outcome;
}

/** Which attempt of its job a handler runs (1-based) and how many are allowed (the job catalog's JobRun). */
const runInput = { attempt: z.number().int().min(1), attempts: z.number().int().min(1) };

/** Thrown by a failed legacy v0 attempt to have its job retried (BullMQ, on the webhook retry schedule). */
export class DeliveryRetry extends Error {}

/** A failed attempt's account for the history, at most 500 characters; null after a success. */
export function failureDetail(outcome: PostOutcome): string | null {
  return outcome.failure === null ? null : (outcome.error ?? outcome.failure).slice(0, 500);
}

export const deliverLegacyWebhookInput = z.object({ workspaceId: z.uuid(), legacyWebhookId: z.uuid(), eventId: z.uuid(), ...runInput }).strict();

/**
 * One attempt of an unsigned legacy v0 delivery (no history table: the queue's job is its record). The same POST
 * and retry schedule as v2 (its job is enqueued on the webhook schedule) and the same share per receiver (its job's
 * catalog `share`), without signature headers or breaker; a webhook removed meanwhile is not sent to.
 */
export const deliverLegacyWebhook = definePlatformProcedure('deliverLegacyWebhook', deliverLegacyWebhookInput, async (ctx, input): Promise<{ status: string; statusCode?: number | null }> => {
  const { workspaceId, legacyWebhookId, eventId, attempt, attempts } = input;
  const webhook = await findLegacyWebhook(ctx.database, workspaceId, legacyWebhookId);
  const event = await findOutboxEvent(ctx.database, workspaceId, eventId);
  if (!webhook || webhook.archivedAt !== null || !event) return { status: 'skipped' };
  const outcome = await deliveryPost(ctx.config, 'v0', webhook.url, legacyBody(event), {});
  const error = failureDetail(outcome);
  if (error === null) return { status: 'succeeded', statusCode: outcome.statusCode };
  if (outcome.refused || attempt >= attempts) return { status: 'failed', statusCode: outcome.statusCode };
  throw new DeliveryRetry(`legacy delivery to ${legacyWebhookId} attempt ${attempt} failed: ${error}`);
});
