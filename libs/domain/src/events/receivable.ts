import { type GrantResourceType, isRuledResourceType, readableEventIds, RESOURCE_RULES, type ResourceRule, type Db } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { viewerOf } from '../kernel/visibility.js';
import { aggregateOfResourceType, EVENT_CATALOG, type EventChannel, type EventTypeSpec, mayReceive } from './catalog.js';

/**
 * What a v1 credential may learn of through the change feed, webhooks or an automation's trigger: an event reaches
 * it only if it could read the event's aggregate now. Two halves, each decided once:
 * - the event type: its read scopes and payload rules such as budget statements (catalog.ts `mayReceive`);
 * - the resource: its type's visibility rule (libs/db visibility.ts: service-account grants, project sharing,
 *   credential ownership of exports and webhooks), evaluated in SQL by the statement that reads the events
 *   (the change feed's window, the relay's `readableEventIds`), exactly as the resource's GET and list apply it.
 */

/** The grant type that bounds an aggregate type's resources for a service account (a series: its task's). */
function grantTypeOf(aggregateType: string): GrantResourceType | undefined {
  if (!isRuledResourceType(aggregateType)) return undefined;
  const rule: ResourceRule = RESOURCE_RULES[aggregateType];
  return rule.grant?.type;
}

/**
 * The event types reaching one of these channels that the credential could receive at all: every read scope
 * held and, for a service account, some grant of the type that bounds the resource. The rest is per event.
 */
export function receivableSpecs(auth: V1AuthContext, channels: readonly EventChannel[]): EventTypeSpec[] {
  const held = new Set(auth.effectiveScopes);
  const grants = viewerOf(auth).grants;
  return EVENT_CATALOG.filter((spec) => {
    if (!spec.channels.some((c) => channels.includes(c)) || !spec.readScopes.every((s) => held.has(s))) return false;
    const aggregate = aggregateOfResourceType(spec.resourceType);
    const grantType = aggregate === undefined ? undefined : grantTypeOf(aggregate);
    return grants === null || grantType === undefined || grants.has(grantType);
  });
}

/** Whether the credential may learn of this one event now: its type and payload, then its resource (one statement). */
export async function mayReceiveEvent(client: Db, auth: V1AuthContext, spec: EventTypeSpec, event: { readonly id: string; readonly workspaceId: string; readonly payload: unknown }): Promise<boolean> {
  if (!mayReceive(auth.effectiveScopes, spec, event.payload)) return false;
  return (await readableEventIds(client, event.workspaceId, [event.id], viewerOf(auth))).has(event.id);
}
