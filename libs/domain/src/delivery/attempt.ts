import { Webhook } from 'standardwebhooks';
import { type ClaimedDelivery, disableWebhooks, inTransaction, recordAttemptOutcome, type SigningSecrets } from '@workcell/db';
import { jitterDelayMs, retrySpanMs } from '@workcell/config';
import { SYSTEM_ACTOR } from '../identity/actor.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { decryptSigningSecret } from '../webhooks/secret.js';
import { signedBody } from './body.js';
import { deliveryPost, failureDetail } from './deliver.js';
import type { PostOutcome } from './http.js';

/** 410 Gone: the receiver says the endpoint is gone for good (docs/webhooks.md "Delivery"). */
const GONE = 410;

/**
 * `webhook-signature`: `v1,<base64 HMAC-SHA256>` under the current secret and, until a rotation's previous secret
 * expires, a second one under it, space-separated as Standard Webhooks allows, so a receiver verifies with either.
 */
export function signatureHeader(ctx: ProcedureContext, workspaceId: string, secrets: SigningSecrets, eventId: string, sentAt: Date, body: string): string {
  const keys = secrets.previous === null ? [secrets.current] : [secrets.current, secrets.previous];
  return keys.map((key) => new Webhook(decryptSigningSecret(ctx.config, workspaceId, key)).sign(eventId, sentAt, body)).join(' ');
}

/** What a failed attempt leads to: another attempt after the schedule's delay, or the end of the delivery. */
function afterFailure(ctx: ProcedureContext, claimed: ClaimedDelivery, outcome: PostOutcome): { status: 'pending' | 'failed'; retryInMs: number | null } {
  const schedule = ctx.config.webhooks.retryScheduleMs;
  if (outcome.refused || outcome.statusCode === GONE || claimed.attempt >= claimed.attemptsAllowed) return { status: 'failed', retryInMs: null };
  return { status: 'pending', retryInMs: jitterDelayMs(schedule[Math.min(claimed.attempt, schedule.length) - 1]!) };
}

/**
 * One attempt of a claimed signed v2 delivery (docs/webhooks.md "Delivery"): POSTs the event signed per Standard
 * Webhooks (`webhook-id` = the event id, the same on every attempt, so receivers deduplicate; `webhook-timestamp` =
 * this attempt; `webhook-sequence` = the event's change-feed sequence) and records the outcome with what was sent
 * and received. 2xx ends the delivery succeeded; a failure is retried after the schedule's next delay until its
 * attempts are spent, and moves the subscription's breaker. A refused target (SSRF rule) ends it at once; a 410
 * Gone ends it and disables the subscription (`receiver_gone`); a receiver failing for the whole schedule (as many
 * consecutive failures as one delivery's attempts, over at least the schedule's span) disables it (`receiver_failing`). Either disabling is audited and writes `webhook.disabled`, in the transaction
 * that records the attempt.
 */
export async function attemptDelivery(ctx: ProcedureContext, claimed: ClaimedDelivery): Promise<void> {
  const { workspaceId, event } = claimed;
  const body = signedBody(event);
  const sentAt = ctx.now();
  const headers = {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signatureHeader(ctx, workspaceId, claimed.secrets, event.id, sentAt, body),
    'webhook-sequence': event.sequence.toString(),
  };
  const outcome = await deliveryPost(ctx.config, 'v1', claimed.url, body, headers);
  const succeeded = outcome.failure === null;
  const next = succeeded ? { status: 'succeeded' as const, retryInMs: null } : afterFailure(ctx, claimed, outcome);
  const record = {
    workspaceId,
    id: claimed.id,
    attempt: claimed.attempt,
    ...next,
    responseStatusCode: outcome.statusCode,
    responseTimeMs: outcome.timeMs,
    error: failureDetail(outcome),
    failureReason: outcome.failure,
    exchange: { requestHeaders: { ...outcome.requestHeaders }, responseHeaders: outcome.responseHeaders, responseBody: outcome.responseBody },
  };
  const breaker = { threshold: ctx.config.webhooks.breakerThreshold, scheduleMs: ctx.config.webhooks.retryScheduleMs };
  // A success is one statement (the hot path); a failure may disable the subscription with it.
  if (succeeded) return void (await recordAttemptOutcome(ctx.database, record, breaker));
  await inTransaction(ctx.database, async (tx) => {
    const recorded = await recordAttemptOutcome(tx, record, breaker);
    if (!recorded.recorded) return;
    const now = ctx.now();
    // Failing for the whole schedule: as many consecutive failed attempts as one delivery makes in all, over at
    // least the schedule's span (either alone could be one unlucky delivery, or a burst of them).
    const schedule = ctx.config.webhooks.retryScheduleMs;
    const exhausted = recorded.failingSince !== null && recorded.consecutiveFailures >= schedule.length + 1 && now.getTime() - recorded.failingSince.getTime() >= retrySpanMs(schedule);
    const reason = outcome.statusCode === GONE ? 'receiver_gone' : exhausted ? 'receiver_failing' : null;
    if (reason !== null) await disableWebhooks(tx, { workspaceId, selection: { ids: [claimed.subscriptionId] }, reason, actor: SYSTEM_ACTOR, now });
  });
}
