import { type ChangeRecord, changeRecord, type OutboxEventColumns } from './changes.js';
import type { Db } from './database.js';
import { Prisma } from './generated/prisma/client.js';
import { inStatementTransaction, inTransaction } from './transactions.js';

/**
 * The data side of the webhook relay (the outbox publisher). One relay runs at a time across every worker
 * instance (a transaction-scoped advisory lock); it reads unpublished outbox events in per-workspace sequence
 * order, writes their delivery rows and marks them published in that same transaction, so an event is fanned out
 * exactly once even when relays overlap or crash.
 */

export interface UnpublishedEvent extends ChangeRecord {
  readonly workspaceId: string;
  /** The automation definition whose run wrote the event (null otherwise) and the chain's depth (0: no automation). */
  readonly causedByDefinitionId?: string | null;
  readonly automationDepth?: number;
  /** The traceparent of the request or job that appended it (outbox_events.trace_context), where read. */
  readonly traceContext?: string | null;
}

/**
 * Runs `work` in one transaction holding the relay lock, or returns null at once when another relay holds it
 * (it will pick the events up; waiting would only pile relays up behind each other). The transaction runs on a
 * pool client of its own (Database.transaction): the relay runs for every burst of commits, and Prisma's
 * interactive transaction cost the worker most of its CPU at 200 events a second (docs/performance.md).
 */
export async function withRelayLock<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T | null> {
  return inStatementTransaction(db, async (tx) => {
    const [row] = await tx.rows<{ locked: boolean }>(Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtextextended('workcell:webhook-relay'::text, 0)) AS locked`);
    return row?.locked ? work(tx) : null;
  });
}

/** The oldest unpublished events, in per-workspace sequence order, locked until the transaction ends. */
export async function lockUnpublishedEvents(tx: Db, take: number): Promise<UnpublishedEvent[]> {
  const rows = await tx.rows<EventColumns & { id: string; caused_by_definition_id: string | null; automation_depth: number }>(
    // ORDER BY names the columns, not their text aliases of the same names (text would order 10 before 9).
    Prisma.sql`SELECT o.workspace_id::text AS workspace_id, o.id::text AS id, o.sequence::text AS sequence, aggregate_type, aggregate_id::text AS aggregate_id, event_type, payload, occurred_at,
        caused_by_definition_id::text AS caused_by_definition_id, automation_depth, trace_context
      FROM outbox_events o WHERE published_at IS NULL
      ORDER BY o.workspace_id, o.sequence LIMIT ${take} FOR UPDATE SKIP LOCKED`,
  );
  return rows.map((r) => Object.assign(eventOfRow(r, r.id), { causedByDefinitionId: r.caused_by_definition_id, automationDepth: r.automation_depth }));
}

/** An outbox event's columns as the relay and the claim read them (sequence as text: pg gives int8 as a string). */
interface EventColumns extends OutboxEventColumns {
  readonly workspace_id: string;
  readonly trace_context: string | null;
}

function eventOfRow(r: EventColumns, id: string): UnpublishedEvent {
  return { workspaceId: r.workspace_id, ...changeRecord(r, id), traceContext: r.trace_context };
}

export interface RelaySubscription {
  readonly workspaceId: string;
  readonly id: string;
  readonly eventTypes: readonly string[];
  readonly ownerCredentialId: string;
}

/** The active, unarchived signed subscriptions of these workspaces. */
export async function activeWebhooksOf(client: Db, workspaceIds: readonly string[]): Promise<RelaySubscription[]> {
  const rows = await client.rows<{
    workspace_id: string;
    id: string;
    event_types: string[];
    owner_credential_id: string;
  }>(Prisma.sql`SELECT workspace_id::text AS workspace_id, id::text AS id, event_types, owner_credential_id::text AS owner_credential_id
      FROM webhook_subscriptions
     WHERE workspace_id = ANY(${[...workspaceIds]}::uuid[]) AND status = 'active' AND archived_at IS NULL
     ORDER BY webhook_subscriptions.id`);
  return rows.map((r) => ({ workspaceId: r.workspace_id, id: r.id, eventTypes: r.event_types, ownerCredentialId: r.owner_credential_id }));
}

export interface RelayLegacyWebhook {
  readonly workspaceId: string;
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
}

/** The unarchived legacy v0 webhooks of these workspaces. */
export async function activeLegacyWebhooksOf(client: Db, workspaceIds: readonly string[]): Promise<RelayLegacyWebhook[]> {
  return client.rows<RelayLegacyWebhook>(Prisma.sql`SELECT workspace_id::text AS "workspaceId", id::text AS id, url, events
      FROM legacy_webhooks
     WHERE workspace_id = ANY(${[...workspaceIds]}::uuid[]) AND archived_at IS NULL
     ORDER BY legacy_webhooks.id`);
}

export interface NewDelivery {
  readonly workspaceId: string;
  readonly subscriptionId: string;
  readonly ownerCredentialId: string;
  readonly eventId: string;
  readonly eventType: string;
}

/**
 * Pending delivery rows, due now, with no attempt made yet and `attemptsAllowed` in all (ids the database's
 * uuidv7()); returns the ids of those inserted. One delivery per (subscription, event): an event fanned out again
 * (its publication undone) adds none.
 */
export async function insertPendingDeliveries(tx: Db, rows: readonly NewDelivery[], attemptsAllowed: number): Promise<{ workspaceId: string; id: string; eventId: string }[]> {
  if (rows.length === 0) return [];
  return tx.rows<{
    workspaceId: string;
    id: string;
    eventId: string;
  }>(Prisma.sql`INSERT INTO webhook_deliveries (workspace_id, subscription_id, owner_credential_id, event_id, event_type, attempt, attempts_allowed, status, next_attempt_at)
      SELECT workspace_id, subscription_id, owner_credential_id, event_id, event_type, 0, ${attemptsAllowed}::int, 'pending'::webhook_delivery_status, now()
        FROM unnest(${rows.map((r) => r.workspaceId)}::uuid[], ${rows.map((r) => r.subscriptionId)}::uuid[], ${rows.map((r) => r.ownerCredentialId)}::uuid[],
                    ${rows.map((r) => r.eventId)}::uuid[], ${rows.map((r) => r.eventType)}::text[])
             AS d(workspace_id, subscription_id, owner_credential_id, event_id, event_type)
      ON CONFLICT (workspace_id, subscription_id, event_id) DO NOTHING
      RETURNING workspace_id::text AS "workspaceId", id::text AS id, event_id::text AS "eventId"`);
}

/** Marks these events published at `at` (those still unpublished), in one statement. */
export async function markEventsPublished(tx: Db, events: readonly { workspaceId: string; id: string }[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(Prisma.sql`UPDATE outbox_events o SET published_at = ${at}
      FROM unnest(${events.map((e) => e.workspaceId)}::uuid[], ${events.map((e) => e.id)}::uuid[]) AS p(workspace_id, id)
     WHERE o.workspace_id = p.workspace_id AND o.id = p.id AND o.published_at IS NULL`);
}

/** What a delivery job needs of its event. */
export async function findOutboxEvent(client: Db, workspaceId: string, id: string): Promise<UnpublishedEvent | null> {
  const row = await client.prisma.outboxEvent.findFirst({
    where: { workspaceId, id },
    select: { workspaceId: true, id: true, sequence: true, aggregateType: true, aggregateId: true, eventType: true, payload: true, occurredAt: true },
  });
  return row ? { ...row, payload: row.payload as Prisma.JsonValue } : null;
}

/** A subscription's signing secrets at claim time: the current one, and the previous one while it still signs. */
export interface SigningSecrets {
  readonly current: { readonly ciphertext: Uint8Array; readonly keyId: string };
  readonly previous: { readonly ciphertext: Uint8Array; readonly keyId: string } | null;
}

/** One claimed delivery: everything its attempt needs, read by the claim itself. */
export interface ClaimedDelivery {
  readonly workspaceId: string;
  readonly id: string;
  readonly subscriptionId: string;
  /** The number of the attempt now in flight (1-based), and how many the delivery may make. */
  readonly attempt: number;
  readonly attemptsAllowed: number;
  readonly url: string;
  readonly secrets: SigningSecrets;
  readonly event: UnpublishedEvent;
}

export interface ClaimLimits {
  /** At most this many deliveries in all. */
  readonly take: number;
  /** At most this many in flight per subscription (across every dispatcher), counting those already in flight. */
  readonly perSubscription: number;
  /** A subscription with at least this many consecutive failed attempts gets one attempt at a time (a probe). */
  readonly breakerThreshold: number;
  /** How long a claim holds its delivery: past it, another dispatcher may claim it again (a lost attempt). */
  readonly leaseMs: number;
}

/** A claimed delivery as the claim's statement answers it. */
type ClaimedRow = EventColumns & {
  id: string;
  subscription_id: string;
  attempt: number;
  attempts_allowed: number;
  url: string;
  secret_ciphertext: Uint8Array;
  secret_key_id: string;
  previous_secret_ciphertext: Uint8Array | null;
  previous_secret_key_id: string | null;
  event_id: string;
};

/**
 * The dispatcher's fair claim (docs/webhooks.md "Delivery"): the active subscriptions with due
 * deliveries whose breaker is closed or has rested (the one waiting longest first, each locked SKIP LOCKED so two
 * dispatchers never count the same subscription's room at once; FOR NO KEY UPDATE, which the relay's KEY SHARE
 * locks do not block: inserting a delivery row locks its subscription so until the relay commits, and a plain FOR
 * UPDATE skipped every subscription the relay was fanning out to, delaying a healthy receiver by seconds), and of each its oldest due deliveries up to its
 * room (per subscription, minus those in flight; one while its breaker is open). Two statements in one transaction:
 * the subscriptions are locked by the first, so the second's snapshot counts every lease of a dispatcher that held
 * them before (in one statement, a snapshot taken before that dispatcher committed missed its leases, and two
 * dispatchers together exceeded the share). Each claimed row counts its
 * attempt, is leased (`lease_until`) and is due again at the lease's end, so an attempt lost with its process is
 * claimed again then; recordAttemptOutcome clears the lease. Spans workspaces: tools/statement-check allows it.
 */

export async function claimDueDeliveries(database: Db, limits: ClaimLimits): Promise<ClaimedDelivery[]> {
  return inTransaction(database, async (tx) => {
    // First the subscriptions, locked until this transaction ends: another dispatcher skips them meanwhile, and one
    // that held them before has committed, so the next statement's snapshot (taken after these locks) sees its leases.
    const locked = await tx.prisma.$queryRaw<{ workspace_id: string; id: string }[]>`
      SELECT s.workspace_id::text AS workspace_id, s.id::text AS id
        FROM webhook_subscriptions s
        CROSS JOIN LATERAL (
          SELECT d.next_attempt_at FROM webhook_deliveries d
           WHERE d.workspace_id = s.workspace_id AND d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= now()
           ORDER BY d.next_attempt_at LIMIT 1) due
       WHERE s.status = 'active' AND s.archived_at IS NULL AND (s.breaker_until IS NULL OR s.breaker_until <= now())
       ORDER BY due.next_attempt_at
       LIMIT ${limits.take}::int
         FOR NO KEY UPDATE OF s SKIP LOCKED`;
    if (locked.length === 0) return [];
    return claimFrom(tx, locked, limits);
  });
}

/** The claim's second statement: of each locked subscription, its oldest due deliveries up to its room, leased. */
async function claimFrom(tx: Db, locked: readonly { workspace_id: string; id: string }[], limits: ClaimLimits): Promise<ClaimedDelivery[]> {
  const rows = await tx.rows<ClaimedRow>(Prisma.sql`WITH candidates AS (
        SELECT s.workspace_id, s.id, due.next_attempt_at AS oldest_due,
               (CASE WHEN s.consecutive_failures >= ${limits.breakerThreshold}::int THEN 1 ELSE ${limits.perSubscription}::int END)
                 - (SELECT count(*) FROM webhook_deliveries f
                     WHERE f.workspace_id = s.workspace_id AND f.subscription_id = s.id AND f.status = 'pending'
                       AND f.lease_until IS NOT NULL AND f.lease_until > now())::int AS room
          FROM webhook_subscriptions s
          CROSS JOIN LATERAL (
            SELECT d.next_attempt_at FROM webhook_deliveries d
             WHERE d.workspace_id = s.workspace_id AND d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= now()
             ORDER BY d.next_attempt_at LIMIT 1) due
         WHERE (s.workspace_id, s.id) IN (SELECT w::uuid, i::uuid FROM unnest(${locked.map((l) => l.workspace_id)}::text[], ${locked.map((l) => l.id)}::text[]) AS l(w, i))
      ), picked AS (
        SELECT p.workspace_id, p.id FROM candidates c
         CROSS JOIN LATERAL (
           SELECT d.workspace_id, d.id, d.next_attempt_at FROM webhook_deliveries d
            WHERE d.workspace_id = c.workspace_id AND d.subscription_id = c.id AND d.status = 'pending' AND d.next_attempt_at <= now()
            ORDER BY d.next_attempt_at, d.id LIMIT greatest(c.room, 0)
              FOR NO KEY UPDATE OF d SKIP LOCKED) p
         ORDER BY c.oldest_due, p.next_attempt_at, p.id
         LIMIT ${limits.take}::int
      ), claimed AS (
        UPDATE webhook_deliveries d
           SET attempt = d.attempt + 1, lease_until = now() + ${limits.leaseMs}::int * interval '1 millisecond',
               next_attempt_at = now() + ${limits.leaseMs}::int * interval '1 millisecond'
          FROM picked WHERE d.workspace_id = picked.workspace_id AND d.id = picked.id
        RETURNING d.workspace_id, d.id, d.subscription_id, d.event_id, d.attempt, d.attempts_allowed
      )
      SELECT c.workspace_id::text AS workspace_id, c.id::text AS id, c.subscription_id::text AS subscription_id, c.attempt, c.attempts_allowed,
             s.url, s.secret_ciphertext, s.secret_key_id,
             CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_ciphertext END AS previous_secret_ciphertext,
             CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_key_id END AS previous_secret_key_id,
             e.id::text AS event_id, e.sequence::text AS sequence, e.aggregate_type, e.aggregate_id::text AS aggregate_id, e.event_type, e.payload, e.occurred_at, e.trace_context
        FROM claimed c
        JOIN webhook_subscriptions s ON s.workspace_id = c.workspace_id AND s.id = c.subscription_id
        JOIN outbox_events e ON e.workspace_id = c.workspace_id AND e.id = c.event_id`);
  return rows.map((r) => ({
    workspaceId: r.workspace_id,
    id: r.id,
    subscriptionId: r.subscription_id,
    attempt: r.attempt,
    attemptsAllowed: r.attempts_allowed,
    url: r.url,
    secrets: {
      current: { ciphertext: r.secret_ciphertext, keyId: r.secret_key_id },
      previous: r.previous_secret_ciphertext === null || r.previous_secret_key_id === null ? null : { ciphertext: r.previous_secret_ciphertext, keyId: r.previous_secret_key_id },
    },
    event: eventOfRow(r, r.event_id),
  }));
}

/** What one attempt sent and received, for the delivery history. */
export interface AttemptExchange {
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>> | null;
  /** The first KB of the response body (null without a response). */
  readonly responseBody: string | null;
}

export interface AttemptOutcome {
  readonly workspaceId: string;
  readonly id: string;
  /** The attempt this outcome is of: a claim since (the lease ran out) makes it stale, and it is not recorded. */
  readonly attempt: number;
  /** `pending`: failed, to be retried after `retryInMs`; `failed`: failed for good; `succeeded`. */
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly retryInMs: number | null;
  readonly responseStatusCode: number | null;
  readonly responseTimeMs: number | null;
  readonly error: string | null;
  readonly failureReason: string | null;
  readonly exchange: AttemptExchange | null;
}

/** The breaker's settings: the threshold and the delays that space attempts while it is open (the retry schedule). */
export interface BreakerSettings {
  readonly threshold: number;
  readonly scheduleMs: readonly number[];
}

/** After an outcome is recorded: whether it was (not stale) and, after a failure, since when the receiver fails. */
export interface RecordedOutcome {
  readonly recorded: boolean;
  readonly subscriptionId: string | null;
  readonly failingSince: Date | null;
  /** The subscription's consecutive failed attempts after this outcome (0 after a success). */
  readonly consecutiveFailures: number;
}

/**
 * Records one attempt's outcome and moves its subscription's breaker, in one statement. The delivery: its status,
 * response, exchange and, while pending, its next due time; the lease is cleared. Only the attempt claimed last is
 * recorded (`attempt` matches and the row is still pending). The subscription: a success closes its breaker (only
 * written when it was not closed: a healthy receiver's successes write nothing there); a failure counts, and from
 * the threshold on rests the breaker for the schedule's next delay (×0.8–1.2), one more step per failure.
 */
export async function recordAttemptOutcome(client: Db, outcome: AttemptOutcome, breaker: BreakerSettings): Promise<RecordedOutcome> {
  const succeeded = outcome.status === 'succeeded';
  const exchange = outcome.exchange;
  const [row] = await client.rows<{ subscription_id: string; failing_since: Date | null; consecutive_failures: number | null }>(Prisma.sql`WITH d AS (
        UPDATE webhook_deliveries
           SET status = ${outcome.status}::webhook_delivery_status,
               response_status_code = ${outcome.responseStatusCode}::int, response_time_ms = ${outcome.responseTimeMs}::int,
               error = ${outcome.error}::text, failure_reason = ${outcome.failureReason}::text,
               request_headers = ${exchange === null ? null : JSON.stringify(exchange.requestHeaders)}::jsonb,
               response_headers = ${exchange?.responseHeaders ? JSON.stringify(exchange.responseHeaders) : null}::jsonb,
               response_body = ${exchange?.responseBody ?? null}::text,
               next_attempt_at = CASE WHEN ${outcome.status}::text = 'pending' THEN now() + ${outcome.retryInMs ?? 0}::int * interval '1 millisecond' END,
               lease_until = NULL,
               delivered_at = CASE WHEN ${succeeded}::boolean THEN now() END,
               updated_at = now()
         WHERE workspace_id = ${outcome.workspaceId}::uuid AND id = ${outcome.id}::uuid AND status = 'pending' AND attempt = ${outcome.attempt}::int
        RETURNING workspace_id, subscription_id
      ), s AS (
        UPDATE webhook_subscriptions s
           SET consecutive_failures = CASE WHEN ${succeeded}::boolean THEN 0 ELSE s.consecutive_failures + 1 END,
               failing_since = CASE WHEN ${succeeded}::boolean THEN NULL ELSE coalesce(s.failing_since, now()) END,
               breaker_until = CASE WHEN ${succeeded}::boolean OR s.consecutive_failures + 1 < ${breaker.threshold}::int THEN NULL
                 ELSE now() + (${[...breaker.scheduleMs]}::int[])[least(s.consecutive_failures + 2 - ${breaker.threshold}::int, ${breaker.scheduleMs.length}::int)]
                        * (0.8 + 0.4 * random()) * interval '1 millisecond' END
          FROM d
         WHERE s.workspace_id = ${outcome.workspaceId}::uuid AND s.workspace_id = d.workspace_id AND s.id = d.subscription_id
           AND (NOT ${succeeded}::boolean OR s.consecutive_failures > 0 OR s.breaker_until IS NOT NULL)
        RETURNING s.failing_since, s.consecutive_failures
      )
      SELECT d.subscription_id::text AS subscription_id, (SELECT failing_since FROM s) AS failing_since, (SELECT consecutive_failures FROM s) AS consecutive_failures FROM d`);
  return { recorded: row !== undefined, subscriptionId: row?.subscription_id ?? null, failingSince: row?.failing_since ?? null, consecutiveFailures: row?.consecutive_failures ?? 0 };
}
