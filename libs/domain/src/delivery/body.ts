import type { UnpublishedEvent } from '@workcell/db';
import { eventSpec } from '../events/catalog.js';

/**
 * The bodies webhook deliveries send (docs/webhooks.md "Webhooks"), built from an outbox event; one place, so a
 * delivery, a test event and what `workcell listen` reproduces from the change feed cannot drift apart.
 */

/** The payload as delivered: the stored event payload without the internal request id. */
export function publicPayload(payload: unknown): unknown {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  const { requestId: _requestId, ...rest } = payload as Record<string, unknown>;
  return rest;
}

/**
 * The signed v2 body (docs/webhooks.md "Webhooks"). `sequence` is the event's per-workspace change-feed sequence (the
 * `id` of its GET /v1/changes entry, a decimal string): deliveries are not ordered, so a receiver orders and
 * deduplicates by it (it is also the `webhook-sequence` header).
 */
export function signedBody(event: UnpublishedEvent): string {
  const spec = eventSpec(event.eventType);
  return JSON.stringify({
    type: event.eventType,
    timestamp: event.occurredAt.toISOString(),
    sequence: event.sequence.toString(),
    data: { resourceType: spec?.resourceType ?? event.aggregateType, resourceId: event.aggregateId, action: spec?.action ?? 'updated', payload: publicPayload(event.payload) },
  });
}

/** The unsigned legacy v0 body (docs/webhooks.md "Webhooks"): v0 names the workspace a team and ids `_id`. */
export function legacyBody(event: UnpublishedEvent): string {
  return JSON.stringify({
    event: event.eventType,
    _id: event.id,
    teamId: event.workspaceId,
    resourceId: event.aggregateId,
    createdAt: event.occurredAt.toISOString(),
    data: publicPayload(event.payload),
  });
}
