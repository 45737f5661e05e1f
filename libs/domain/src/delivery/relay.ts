import {
  activeLegacyWebhooksOf,
  activeWebhooksOf,
  type CredentialRecord,
  type Database,
  insertPendingDeliveries,
  loadCredential,
  lockUnpublishedEvents,
  markEventsPublished,
  type NewDelivery,
  stalePendingDeliveries,
  withRelayLock,
} from '@workcell/db';
import { eventSpec, mayReceive } from '../events/catalog.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { WILDCARD } from '../webhooks/view.js';

/** Where the relay hands deliveries to; the worker backs it with BullMQ jobs of deterministic ids. */
export interface DeliverySink {
  deliver(delivery: { workspaceId: string; deliveryId: string }): Promise<void>;
  deliverLegacy(delivery: { workspaceId: string; legacyWebhookId: string; eventId: string }): Promise<void>;
}

const BATCH = 200;

/**
 * What a subscription owner may receive now, exactly as authenticate-credential computes a request's effective
 * scopes: a personal token acts with its scopes narrowed to its member's current permissions, a service
 * account's credential with its scopes. A revoked or expired credential, an inactive principal or a locked
 * workspace receives nothing (null).
 */
export function ownerScopes(credential: CredentialRecord | null, now: Date): readonly string[] | null {
  if (!credential || credential.status !== 'active' || credential.revokedAt !== null) return null;
  if (credential.expiresAt !== null && credential.expiresAt <= now) return null;
  if (credential.workspace.lockedAt !== null) return null;
  if (credential.member) {
    if (credential.member.status !== 'active') return null;
    const permissions = new Set(credential.member.permissions);
    return credential.scopes.filter((s) => permissions.has(s));
  }
  if (credential.serviceAccount) return credential.serviceAccount.status === 'active' ? credential.scopes : null;
  return null;
}

async function scopesByCredential(database: Database, owners: readonly { workspaceId: string; ownerCredentialId: string }[], now: Date): Promise<Map<string, readonly string[] | null>> {
  const scopes = new Map<string, readonly string[] | null>();
  for (const { workspaceId, ownerCredentialId } of owners) {
    if (!scopes.has(ownerCredentialId)) scopes.set(ownerCredentialId, ownerScopes(await loadCredential(database, workspaceId, ownerCredentialId), now));
  }
  return scopes;
}

/**
 * One relay run: fans the oldest unpublished outbox events out to the subscriptions of their workspace and marks
 * them published, all in one transaction under the relay lock (so concurrent runs never fan an event out twice,
 * and a crash before commit leaves the events unpublished for the next run).
 * - signed v2: every active subscription whose event types match, whose owner credential is usable and whose
 *   owner may receive this very event now (`mayReceive`, finance overlays included) gets a pending delivery row;
 * - legacy v0: every unarchived legacy webhook whose `events` are empty or name the type gets a delivery job,
 *   enqueued before commit under a deterministic id (a rolled-back run re-enqueues the same ids: no duplicate).
 * Delivery jobs of the rows are enqueued after commit under the row id; pending rows whose job may have been
 * lost (crash between commit and enqueue) are enqueued again from the database once they are stale.
 */
export async function relayOutbox(ctx: ProcedureContext, sink: DeliverySink): Promise<{ events: number; deliveries: number }> {
  const now = ctx.now();
  const created = await withRelayLock(ctx.database, async (tx) => {
    const events = await lockUnpublishedEvents(tx, BATCH);
    if (events.length === 0) return { events: 0, inserted: [] };
    const workspaceIds = [...new Set(events.map((e) => e.workspaceId))];
    const subscriptions = await activeWebhooksOf(tx, workspaceIds);
    const legacy = await activeLegacyWebhooksOf(tx, workspaceIds);
    const scopes = await scopesByCredential(ctx.database, subscriptions, now);
    const rows: NewDelivery[] = [];
    for (const event of events) {
      const spec = eventSpec(event.eventType);
      if (!spec) continue;
      if (spec.channels.includes('webhooks')) {
        for (const s of subscriptions) {
          if (s.workspaceId !== event.workspaceId) continue;
          if (!s.eventTypes.includes(WILDCARD) && !s.eventTypes.includes(event.eventType)) continue;
          const held = scopes.get(s.ownerCredentialId);
          if (!held || !mayReceive(held, spec, event.payload)) continue;
          rows.push({ workspaceId: event.workspaceId, subscriptionId: s.id, ownerCredentialId: s.ownerCredentialId, eventId: event.id, eventType: event.eventType });
        }
      }
      if (spec.channels.includes('legacy-webhooks')) {
        for (const l of legacy) {
          if (l.workspaceId !== event.workspaceId || (l.events.length > 0 && !l.events.includes(event.eventType))) continue;
          await sink.deliverLegacy({ workspaceId: event.workspaceId, legacyWebhookId: l.id, eventId: event.id });
        }
      }
    }
    const inserted = await insertPendingDeliveries(tx, rows);
    await markEventsPublished(tx, events, now);
    return { events: events.length, inserted };
  });
  for (const d of created?.inserted ?? []) await sink.deliver({ workspaceId: d.workspaceId, deliveryId: d.id });
  // Re-enqueueing a job that still exists is a no-op (same id), so this only revives lost ones.
  const staleBefore = new Date(now.getTime() - Math.max(60_000, 3 * ctx.config.webhooks.timeoutMs));
  for (const d of await stalePendingDeliveries(ctx.database, staleBefore, BATCH)) await sink.deliver({ workspaceId: d.workspaceId, deliveryId: d.id });
  return { events: created?.events ?? 0, deliveries: created?.inserted.length ?? 0 };
}
