import { isGrantResourceType } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { grantedIds } from '../kernel/grants.js';
import { aggregateOfResourceType, EVENT_CATALOG, type EventChannel, type EventTypeSpec, mayReceive } from './catalog.js';

/**
 * What a v1 credential may learn of through the change feed or webhooks: the event's read scopes (and payload
 * rules such as budget statements, catalog.ts), and for service accounts only resources their resource grants
 * let them read (kernel/grants.ts). Members are bounded by scopes alone.
 */

/** The ids of an outbox aggregate type the credential may learn of: null for all, otherwise exactly these. */
export function receivableIds(auth: V1AuthContext, aggregateType: string): ReadonlySet<string> | null {
  if (!isGrantResourceType(aggregateType)) return null;
  const ids = grantedIds(auth, aggregateType);
  return ids === null ? null : new Set(ids.map((id) => id.toLowerCase()));
}

/**
 * The event types reaching one of these channels that the credential could receive at all: every read scope
 * held and, for a service account, some grant on the resource type. Payload rules and per-resource grants are
 * decided per event (`mayReceiveEvent`).
 */
export function receivableSpecs(auth: V1AuthContext, channels: readonly EventChannel[]): EventTypeSpec[] {
  const held = new Set(auth.effectiveScopes);
  return EVENT_CATALOG.filter((spec) => {
    if (!spec.channels.some((c) => channels.includes(c)) || !spec.readScopes.every((s) => held.has(s))) return false;
    const aggregate = aggregateOfResourceType(spec.resourceType);
    const ids = aggregate === undefined ? null : receivableIds(auth, aggregate);
    return ids === null || ids.size > 0;
  });
}

/** Whether the credential may learn of this one event (its scopes, its payload rules and its resource). */
export function mayReceiveEvent(auth: V1AuthContext, spec: EventTypeSpec, event: { readonly aggregateType: string; readonly aggregateId: string; readonly payload: unknown }): boolean {
  if (!mayReceive(auth.effectiveScopes, spec, event.payload)) return false;
  const ids = receivableIds(auth, event.aggregateType);
  return ids === null || ids.has(event.aggregateId.toLowerCase());
}
