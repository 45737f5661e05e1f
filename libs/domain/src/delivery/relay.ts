import {
  activeLegacyWebhooksOf,
  activeWebhooksOf,
  type Database,
  insertPendingDeliveries,
  loadCredential,
  lockUnpublishedEvents,
  markEventsPublished,
  type NewDelivery,
  stalePendingDeliveries,
  withRelayLock,
} from '@workcell/db';
import { eventSpec } from '../events/catalog.js';
import { mayReceiveEvent } from '../events/receivable.js';
import { authorityOf, type V1AuthContext } from '../identity/authenticate-credential.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { WILDCARD } from '../webhooks/view.js';

/** Where the relay hands deliveries to; the worker backs it with BullMQ jobs of deterministic ids. */
export interface DeliverySink {
  deliver(delivery: { workspaceId: string; deliveryId: string }): Promise<void>;
  deliverLegacy(delivery: { workspaceId: string; legacyWebhookId: string; eventId: string }): Promise<void>;
}

const BATCH = 200;

/** Each owner credential's authority now (null: refused), computed exactly as authentication does. */
async function ownersOf(database: Database, owners: readonly { workspaceId: string; ownerCredentialId: string }[], now: Date): Promise<Map<string, V1AuthContext | null>> {
  const authorities = new Map<string, V1AuthContext | null>();
  for (const { workspaceId, ownerCredentialId } of owners) {
    if (authorities.has(ownerCredentialId)) continue;
    const credential = await loadCredential(database, workspaceId, ownerCredentialId);
    const authority = credential ? await authorityOf(database, credential, now) : null;
    authorities.set(ownerCredentialId, authority?.ok ? authority.context : null);
  }
  return authorities;
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
    const owners = await ownersOf(ctx.database, subscriptions, now);
    const rows: NewDelivery[] = [];
    for (const event of events) {
      const spec = eventSpec(event.eventType);
      if (!spec) continue;
      if (spec.channels.includes('webhooks')) {
        for (const s of subscriptions) {
          if (s.workspaceId !== event.workspaceId) continue;
          if (!s.eventTypes.includes(WILDCARD) && !s.eventTypes.includes(event.eventType)) continue;
          // The owner's scopes, payload rules (finance) and, for a service account, its resource grants.
          const owner = owners.get(s.ownerCredentialId);
          if (!owner || !mayReceiveEvent(owner, spec, event)) continue;
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
