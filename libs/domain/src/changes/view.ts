import type { ChangeRecord } from '@workcell/db';
import { publicPayload } from '../delivery/body.js';
import type { ChangeAction, EventTypeSpec } from '../events/catalog.js';

/**
 * One change-feed entry as the registry's Change: where it sits in the feed, which event it is, what changed and
 * how. With `include=payload` it also carries the payload as a webhook delivery sends it, so a follower (`workcell
 * listen`) can rebuild a delivery's exact body (delivery/body.ts `signedBody`).
 */
export interface ChangeView {
  /** The event's per-workspace sequence: monotonic, in commit order. */
  readonly id: string;
  /** The event's id (uuid), a delivery's `webhook-id`. */
  readonly eventId: string;
  /** The event type of the event catalog, e.g. `task.created`. */
  readonly type: string;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly action: ChangeAction;
  readonly occurredAt: string;
  readonly payload?: unknown;
}

export function changeView(spec: EventTypeSpec, row: ChangeRecord, withPayload: boolean): ChangeView {
  const view = {
    id: row.sequence.toString(),
    eventId: row.id,
    type: row.eventType,
    resourceType: spec.resourceType,
    resourceId: row.aggregateId,
    action: spec.action,
    occurredAt: row.occurredAt.toISOString(),
  };
  return withPayload ? { ...view, payload: publicPayload(row.payload) } : view;
}
