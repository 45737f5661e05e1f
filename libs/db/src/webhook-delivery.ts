import type { Database, Statements } from './database.js';
import { Prisma } from './generated/prisma/client.js';
import { type Client, clientOf, executeStatement, readRows, type SqlClient } from './transactions.js';

/**
 * The data side of the webhook relay (the outbox publisher). One relay runs at a time across every worker
 * instance (a transaction-scoped advisory lock); it reads unpublished outbox events in per-workspace sequence
 * order, writes their delivery rows and marks them published in that same transaction, so an event is fanned out
 * exactly once even when relays overlap or crash.
 */

export interface UnpublishedEvent {
  readonly workspaceId: string;
  readonly id: string;
  readonly sequence: bigint;
  readonly aggregateType: string;
  readonly aggregateId: string;
  readonly eventType: string;
  readonly payload: unknown;
  readonly occurredAt: Date;
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
export async function withRelayLock<T>(database: Database, work: (tx: Statements) => Promise<T>): Promise<T | null> {
  return database.transaction(async (tx) => {
    const [row] = await readRows<{ locked: boolean }>(tx, Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtextextended('workcell:webhook-relay'::text, 0)) AS locked`);
    return row?.locked ? work(tx) : null;
  });
}

/** The oldest unpublished events, in per-workspace sequence order, locked until the transaction ends. */
export async function lockUnpublishedEvents(tx: SqlClient, take: number): Promise<UnpublishedEvent[]> {
  const rows = await readRows<{ workspace_id: string; id: string; sequence: string; aggregate_type: string; aggregate_id: string; event_type: string; payload: unknown; occurred_at: Date; caused_by_definition_id: string | null; automation_depth: number; trace_context: string | null }>(
    tx,
    // ORDER BY names the columns, not their text aliases of the same names (text would order 10 before 9).
    Prisma.sql`SELECT o.workspace_id::text AS workspace_id, o.id::text AS id, o.sequence::text AS sequence, aggregate_type, aggregate_id::text AS aggregate_id, event_type, payload, occurred_at,
        caused_by_definition_id::text AS caused_by_definition_id, automation_depth, trace_context
      FROM outbox_events o WHERE published_at IS NULL
      ORDER BY o.workspace_id, o.sequence LIMIT ${take} FOR UPDATE SKIP LOCKED`,
  );
  return rows.map((r) => ({
    workspaceId: r.workspace_id,
    id: r.id,
    sequence: BigInt(r.sequence),
    aggregateType: r.aggregate_type,
    aggregateId: r.aggregate_id,
    eventType: r.event_type,
    payload: r.payload,
    occurredAt: r.occurred_at,
    causedByDefinitionId: r.caused_by_definition_id,
    automationDepth: r.automation_depth,
    traceContext: r.trace_context,
  }));
}

export interface RelaySubscription {
  readonly workspaceId: string;
  readonly id: string;
  readonly eventTypes: readonly string[];
  readonly ownerCredentialId: string;
}

/** The active, unarchived signed subscriptions of these workspaces. */
export async function activeWebhooksOf(client: SqlClient, workspaceIds: readonly string[]): Promise<RelaySubscription[]> {
  const rows = await readRows<{ workspace_id: string; id: string; event_types: string[]; owner_credential_id: string }>(
    client,
    Prisma.sql`SELECT workspace_id::text AS workspace_id, id::text AS id, event_types, owner_credential_id::text AS owner_credential_id
      FROM webhook_subscriptions
     WHERE workspace_id = ANY(${[...workspaceIds]}::uuid[]) AND status = 'active' AND archived_at IS NULL
     ORDER BY webhook_subscriptions.id`,
  );
  return rows.map((r) => ({ workspaceId: r.workspace_id, id: r.id, eventTypes: r.event_types, ownerCredentialId: r.owner_credential_id }));
}

export interface RelayLegacyWebhook {
  readonly workspaceId: string;
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
}

/** The unarchived legacy v0 webhooks of these workspaces. */
export async function activeLegacyWebhooksOf(client: SqlClient, workspaceIds: readonly string[]): Promise<RelayLegacyWebhook[]> {
  return readRows<RelayLegacyWebhook>(
    client,
    Prisma.sql`SELECT workspace_id::text AS "workspaceId", id::text AS id, url, events
      FROM legacy_webhooks
     WHERE workspace_id = ANY(${[...workspaceIds]}::uuid[]) AND archived_at IS NULL
     ORDER BY legacy_webhooks.id`,
  );
}

export interface NewDelivery {
  readonly workspaceId: string;
  readonly subscriptionId: string;
  readonly ownerCredentialId: string;
  readonly eventId: string;
  readonly eventType: string;
}

/** Pending delivery rows (`attempt` 1 is the one about to be made, ids the database's uuidv7()); returns their ids. */
export async function insertPendingDeliveries(tx: SqlClient, rows: readonly NewDelivery[]): Promise<{ workspaceId: string; id: string; eventId: string }[]> {
  if (rows.length === 0) return [];
  return readRows<{ workspaceId: string; id: string; eventId: string }>(
    tx,
    Prisma.sql`INSERT INTO webhook_deliveries (workspace_id, subscription_id, owner_credential_id, event_id, event_type, attempt, status)
      SELECT workspace_id, subscription_id, owner_credential_id, event_id, event_type, 1, 'pending'::webhook_delivery_status
        FROM unnest(${rows.map((r) => r.workspaceId)}::uuid[], ${rows.map((r) => r.subscriptionId)}::uuid[], ${rows.map((r) => r.ownerCredentialId)}::uuid[],
                    ${rows.map((r) => r.eventId)}::uuid[], ${rows.map((r) => r.eventType)}::text[])
             AS d(workspace_id, subscription_id, owner_credential_id, event_id, event_type)
      RETURNING workspace_id::text AS "workspaceId", id::text AS id, event_id::text AS "eventId"`,
  );
}

/** Marks these events published at `at` (those still unpublished), in one statement. */
export async function markEventsPublished(tx: SqlClient, events: readonly { workspaceId: string; id: string }[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await executeStatement(
    tx,
    Prisma.sql`UPDATE outbox_events o SET published_at = ${at}
      FROM unnest(${events.map((e) => e.workspaceId)}::uuid[], ${events.map((e) => e.id)}::uuid[]) AS p(workspace_id, id)
     WHERE o.workspace_id = p.workspace_id AND o.id = p.id AND o.published_at IS NULL`,
  );
}

/**
 * The number of a pending delivery's next attempt, from its row: a row records its latest attempt, and a failed
 * attempt that will be retried leaves `nextRetryAt` set (a new row, attempt 1, has none). The in-process first
 * attempt and the queue's retries both count from here, so they number one sequence 1..N.
 */
export function nextAttemptOf(row: { readonly attempt: number; readonly nextRetryAt: Date | null }): number {
  return row.nextRetryAt === null ? row.attempt : row.attempt + 1;
}

/** Pending deliveries not touched since `before`: their job may have been lost (a crash between commit and enqueue). */
export async function stalePendingDeliveries(client: Client, before: Date, take: number): Promise<{ workspaceId: string; id: string; nextAttempt: number }[]> {
  const rows = await clientOf(client).webhookDelivery.findMany({
    where: { status: 'pending', updatedAt: { lt: before }, OR: [{ nextRetryAt: null }, { nextRetryAt: { lt: before } }] },
    select: { workspaceId: true, id: true, attempt: true, nextRetryAt: true },
    orderBy: { updatedAt: 'asc' },
    take,
  });
  return rows.map((r) => ({ workspaceId: r.workspaceId, id: r.id, nextAttempt: nextAttemptOf(r) }));
}

/** What a delivery job needs of its event. */
export async function findOutboxEvent(client: Client, workspaceId: string, id: string): Promise<UnpublishedEvent | null> {
  const row = await clientOf(client).outboxEvent.findFirst({
    where: { workspaceId, id },
    select: { workspaceId: true, id: true, sequence: true, aggregateType: true, aggregateId: true, eventType: true, payload: true, occurredAt: true },
  });
  return row ? { ...row, payload: row.payload as Prisma.JsonValue } : null;
}

/** Everything one attempt of a signed delivery needs, read in one statement (the delivery's hot path). */
export interface DeliveryWork {
  readonly status: string;
  /** The latest recorded attempt (nextAttemptOf: the one to make now). */
  readonly attempt: number;
  readonly nextRetryAt: Date | null;
  readonly subscriptionId: string;
  /** null when the subscription row no longer exists. */
  readonly target: { url: string; status: string; archivedAt: Date | null; secretCiphertext: Uint8Array; secretKeyId: string } | null;
  /** null when the event no longer exists. */
  readonly event: UnpublishedEvent | null;
}

/**
 * The delivery row with its subscription's target and its event (either may be gone), or null without the row.
 * Straight through the pool (readRows): Prisma's client costs about twice the CPU for the same statement. Columns
 * decode alike both ways: `sequence` travels as text (pg gives int8 as a string), the secret as bytea (a Buffer
 * from pg, a Uint8Array from Prisma), the payload as jsonb.
 */
export async function loadDeliveryWork(client: Client, workspaceId: string, deliveryId: string): Promise<DeliveryWork | null> {
  const [row] = await readRows<{
    status: string;
    attempt: number;
    next_retry_at: Date | null;
    subscription_id: string;
    url: string | null;
    target_status: string | null;
    archived_at: Date | null;
    secret_ciphertext: Uint8Array | null;
    secret_key_id: string | null;
    event_id: string | null;
    sequence: string | null;
    aggregate_type: string | null;
    aggregate_id: string | null;
    event_type: string | null;
    payload: unknown;
    occurred_at: Date | null;
  }>(
    client,
    Prisma.sql`SELECT d.status::text AS status, d.attempt, d.next_retry_at, d.subscription_id::text AS subscription_id,
           s.url, s.status::text AS target_status, s.archived_at, s.secret_ciphertext, s.secret_key_id,
           e.id::text AS event_id, e.sequence::text AS sequence, e.aggregate_type, e.aggregate_id::text AS aggregate_id, e.event_type, e.payload, e.occurred_at
      FROM webhook_deliveries d
      LEFT JOIN webhook_subscriptions s ON s.workspace_id = d.workspace_id AND s.id = d.subscription_id
      LEFT JOIN outbox_events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id
     WHERE d.workspace_id = ${workspaceId}::uuid AND d.id = ${deliveryId}::uuid`,
  );
  if (!row) return null;
  return {
    status: row.status,
    attempt: row.attempt,
    nextRetryAt: row.next_retry_at,
    subscriptionId: row.subscription_id,
    target:
      row.url === null
        ? null
        : { url: row.url, status: row.target_status!, archivedAt: row.archived_at, secretCiphertext: row.secret_ciphertext!, secretKeyId: row.secret_key_id! },
    event:
      row.event_id === null
        ? null
        : {
            workspaceId,
            id: row.event_id,
            sequence: BigInt(row.sequence!),
            aggregateType: row.aggregate_type!,
            aggregateId: row.aggregate_id!,
            eventType: row.event_type!,
            payload: row.payload,
            occurredAt: row.occurred_at!,
          },
  };
}
