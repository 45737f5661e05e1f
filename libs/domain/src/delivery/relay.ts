import {
  activeLegacyWebhooksOf,
  activeWebhooksOf,
  disableWebhooks,
  insertPendingDeliveries,
  insertAutomationRunsOnce,
  inTransaction,
  loadCredential,
  lockUnpublishedEvents,
  markEventsPublished,
  readableEventIds,
  type NewDelivery,
  type Db,
  triggerableAutomationsOf,
  type WebhookDisabledReason,
  withRelayLock,
} from '@workcell/db';
import { withTraceparent } from '@workcell/telemetry';
import { eventSpec, mayReceive } from '../events/catalog.js';
import { viewerOf } from '../kernel/visibility.js';
import { SYSTEM_ACTOR } from '../identity/actor.js';
import { authorityOf } from '../identity/authenticate-credential.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { WILDCARD } from '../webhooks/view.js';
import { automationRunsFor } from '../automations/trigger.js';
import { jobsStartedBy, type PostCommitJob } from './post-commit.js';

/** Where the relay hands deliveries to; the worker backs it (apps/worker jobs.module.ts). */
export interface DeliverySink {
  /**
   * New signed delivery rows were committed: the dispatcher claims them (DeliveryDispatcher). Never waits for a
   * send; rows it does not reach now stay due in the database.
   */
  dispatch(): void;
  /**
   * A legacy v0 delivery, always a BullMQ job: it has no row, so its job (enqueued before the relay's commit under
   * a deterministic id) is its only record; an attempt in-process would leave nothing to revive it after a crash.
   */
  deliverLegacy(delivery: { workspaceId: string; legacyWebhookId: string; eventId: string }): Promise<void>;
  /**
   * A job an event starts once committed (jobsStartedBy: an invitation's e-mail, an export, a project lifecycle
   * operation), always enqueued before the relay's commit under the job's deterministic id, like a legacy delivery:
   * an event is never marked published without its job, and a rolled-back run enqueues the same id again (no second
   * job; each job records what it did).
   */
  start(job: PostCommitJob): Promise<void>;
  /**
   * A new automation run's first job, after the relay's commit (a job enqueued before it could run before its row
   * exists); a run whose job was lost between the two is revived by reviveStaleAutomationRuns.
   */
  startAutomationRun(run: { workspaceId: string; runId: string }): Promise<void>;
}

const BATCH = 200;

/**
 * Why an owner's refusal disables its subscriptions. Revocation disables them at once (in the revoking
 * transaction); expiry is a matter of time, so it is noticed here, as is an owner whose member or service
 * account is no longer active. A locked workspace disables nothing: the lock is the operator's, and lifting it
 * should find the subscriptions as they were.
 */
const DISABLED_BY_REFUSAL: Readonly<Record<string, WebhookDisabledReason>> = {
  revoked: 'owner_revoked',
  expired: 'owner_expired',
  member_inactive: 'owner_inactive',
  service_account_inactive: 'owner_inactive',
  no_principal: 'owner_inactive',
};

type Owner = { readonly ok: true; readonly context: V1AuthContext } | { readonly ok: false; readonly disable: WebhookDisabledReason | null };

/** Each owner credential's authority now, computed exactly as authentication does. */
async function ownersOf(database: Db, owners: readonly { workspaceId: string; ownerCredentialId: string }[], now: Date): Promise<Map<string, Owner>> {
  const authorities = new Map<string, Owner>();
  for (const { workspaceId, ownerCredentialId } of owners) {
    if (authorities.has(ownerCredentialId)) continue;
    const credential = await loadCredential(database, workspaceId, ownerCredentialId);
    const authority = credential ? await authorityOf(database, credential, now) : null;
    authorities.set(ownerCredentialId, authority?.ok ? authority : { ok: false, disable: authority ? (DISABLED_BY_REFUSAL[authority.reason] ?? null) : 'owner_revoked' });
  }
  return authorities;
}

/**
 * The deliveries whose event's aggregate the subscription's owner may read now (the resource's visibility rule,
 * libs/db visibility.ts, as its GET applies it): one statement per owner with candidates in this batch.
 */
async function readableByOwner(tx: Db, candidates: readonly NewDelivery[], owners: ReadonlyMap<string, Owner>): Promise<NewDelivery[]> {
  const byOwner = new Map<string, NewDelivery[]>();
  for (const c of candidates) byOwner.set(c.ownerCredentialId, [...(byOwner.get(c.ownerCredentialId) ?? []), c]);
  const readable = new Set<string>();
  for (const [ownerCredentialId, list] of byOwner) {
    const owner = owners.get(ownerCredentialId);
    if (!owner?.ok) continue;
    const ids = await readableEventIds(tx, owner.context.workspaceId, [...new Set(list.map((c) => c.eventId))], viewerOf(owner.context));
    for (const id of ids) readable.add(`${ownerCredentialId}:${id}`);
  }
  return candidates.filter((c) => readable.has(`${c.ownerCredentialId}:${c.eventId}`));
}

/** What one relay run did; `busy` when another run held the relay lock, `full` when more events may be waiting. */
export interface RelayRun {
  readonly events: number;
  readonly deliveries: number;
  readonly busy: boolean;
  readonly full: boolean;
}

/**
 * One relay run: fans the oldest unpublished outbox events out to the subscriptions of their workspace and marks
 * them published, all in one transaction under the relay lock (so concurrent runs never fan an event out twice,
 * and a crash before commit leaves the events unpublished for the next run).
 * - signed v2: every active subscription whose event types match, whose owner credential is usable and whose
 *   owner may receive this very event now (its type's scopes and payload rules, `mayReceive`, and its resource's
 *   visibility rule: grants, project sharing, ownership; `readableByOwner`) gets a pending delivery row;
 * - legacy v0: every unarchived legacy webhook whose `events` are empty or name the type gets a delivery job,
 *   enqueued before commit under a deterministic id (a rolled-back run re-enqueues the same ids: no duplicate).
 * The rows are the dispatcher's queue: after commit the sink wakes it (DeliveryDispatcher claims them fairly).
 * A subscription whose owner credential has expired (or whose principal is no longer active) gets nothing and is
 * disabled after commit, each in its own short transaction (`disableWebhooks`: idempotent, audited, with an
 * event), so it never stays `active` while receiving nothing; a crash in between is caught by the next event.
 * - post-commit jobs: what an event starts (jobsStartedBy), enqueued before commit like legacy deliveries;
 * - automations: every published, unarchived definition whose trigger matches gets one run row per event
 *   (automationRunsFor: never its own writes, and a chain bounded in depth), whose job is enqueued after commit.
 */
export async function relayOutbox(ctx: ProcedureContext, sink: DeliverySink): Promise<RelayRun> {
  const now = ctx.now();
  const created = await withRelayLock(ctx.database, async (tx) => {
    const events = await lockUnpublishedEvents(tx, BATCH);
    if (events.length === 0) return { events: 0, inserted: [], refused: [], runs: [], dispatch: false };
    const workspaceIds = [...new Set(events.map((e) => e.workspaceId))];
    const subscriptions = await activeWebhooksOf(tx, workspaceIds);
    const legacy = await activeLegacyWebhooksOf(tx, workspaceIds);
    const owners = await ownersOf(ctx.database, subscriptions, now);
    const refused = subscriptions.flatMap((s) => {
      const owner = owners.get(s.ownerCredentialId);
      return owner && !owner.ok && owner.disable !== null ? [{ workspaceId: s.workspaceId, id: s.id, reason: owner.disable }] : [];
    });
    const candidates: NewDelivery[] = [];
    const legacyJobs: { workspaceId: string; legacyWebhookId: string; eventId: string }[] = [];
    const started: { eventId: string; job: PostCommitJob }[] = [];
    for (const event of events) {
      for (const job of jobsStartedBy(event)) started.push({ eventId: event.id, job });
      const spec = eventSpec(event.eventType);
      if (!spec) continue;
      if (spec.channels.includes('webhooks')) {
        for (const s of subscriptions) {
          if (s.workspaceId !== event.workspaceId) continue;
          if (!s.eventTypes.includes(WILDCARD) && !s.eventTypes.includes(event.eventType)) continue;
          // The owner's scopes and payload rules (finance) here; the resource's visibility rule below, per owner.
          const owner = owners.get(s.ownerCredentialId);
          if (!owner?.ok || !mayReceive(owner.context.effectiveScopes, spec, event.payload)) continue;
          candidates.push({ workspaceId: event.workspaceId, subscriptionId: s.id, ownerCredentialId: s.ownerCredentialId, eventId: event.id, eventType: event.eventType });
        }
      }
      if (spec.channels.includes('legacy-webhooks')) {
        for (const l of legacy) {
          if (l.workspaceId !== event.workspaceId || (l.events.length > 0 && !l.events.includes(event.eventType))) continue;
          legacyJobs.push({ workspaceId: event.workspaceId, legacyWebhookId: l.id, eventId: event.id });
        }
      }
    }
    // Each job, and each delivery below, continues the trace of the request that appended its event (outbox trace_context).
    const traceOf = new Map(events.map((e) => [e.id, e.traceContext]));
    await Promise.all(legacyJobs.map((job) => withTraceparent(traceOf.get(job.eventId), () => sink.deliverLegacy(job))));
    await Promise.all(started.map(({ eventId, job }) => withTraceparent(traceOf.get(eventId), () => sink.start(job))));
    const rows = await readableByOwner(tx, candidates, owners);
    const inserted = await insertPendingDeliveries(tx, rows, ctx.config.webhooks.retryScheduleMs.length + 1);
    // Automation runs (docs/automations.md): one per (definition, event), inserted with the event's publication.
    const runs = await insertAutomationRunsOnce(tx, automationRunsFor(events, await triggerableAutomationsOf(tx, workspaceIds)), now);
    await markEventsPublished(tx, events, now);
    // A test event's delivery was inserted with it (PATCH sendTestEvent): its publication wakes the dispatcher too.
    const dispatch = inserted.length > 0 || events.some((e) => e.eventType === 'webhook.test');
    return { events: events.length, inserted, refused, runs, dispatch };
  });
  if (created?.dispatch) sink.dispatch();
  await Promise.all((created?.runs ?? []).map((r) => sink.startAutomationRun({ workspaceId: r.workspaceId, runId: r.id })));
  // Outside the relay's transaction: disabling writes an outbox event, whose sequence lock the relay must not hold.
  for (const s of created?.refused ?? []) {
    await inTransaction(ctx.database, (tx) => disableWebhooks(tx, { workspaceId: s.workspaceId, selection: { ids: [s.id] }, reason: s.reason, actor: SYSTEM_ACTOR, now }));
  }
  const events = created?.events ?? 0;
  return { events, deliveries: created?.inserted.length ?? 0, busy: created === null, full: events === BATCH };
}
