import { type AuditActor, recordAudit } from './audit.js';
import { Prisma } from './generated/prisma/client.js';
import { pageIds } from './keyset.js';
import { appendOutboxEvent } from './outbox.js';
import { type CasOutcome, type Client, clientOf, executeStatement } from './transactions.js';

/**
 * Signed (v2) webhook subscriptions and their delivery history. The signing secret is stored only encrypted
 * (`secret_ciphertext`, `secret_key_id`) and never selected by the reads the API serves; only the delivery
 * engine asks for it (`findWebhookTarget`). Removal archives (`archived_at`): the row stays for its deliveries.
 * Every query is scoped by the workspace id, and every API read or write by its reader (below): ownership is
 * part of the SQL statement, never a check after the fact.
 */

// The transaction client, named here rather than imported from credentials.ts (which imports this file).
type Tx = Prisma.TransactionClient;

export type WebhookStatus = 'active' | 'paused' | 'disabled';

/** Why a subscription is disabled (docs/webhooks.md "Webhooks"; the registry's WEBHOOK_DISABLED_REASONS). */
export type WebhookDisabledReason = 'owner' | 'administrator' | 'owner_revoked' | 'owner_expired' | 'owner_inactive' | 'receiver_gone';

/**
 * Who reads: the owning credential (only its own subscriptions) or a workspace administrator (every
 * subscription's metadata). There is no third way to name subscriptions, so no read can forget the owner.
 */
export type WebhookReader = { readonly ownerCredentialId: string } | { readonly administrator: true };

function readerWhere(reader: WebhookReader): Prisma.WebhookSubscriptionWhereInput {
  return 'ownerCredentialId' in reader ? { ownerCredentialId: reader.ownerCredentialId } : {};
}

export interface WebhookRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: readonly string[];
  readonly ownerCredentialId: string;
  readonly status: WebhookStatus;
  readonly disabledReason: string | null;
  readonly disabledAt: Date | null;
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const select = {
  id: true,
  workspaceId: true,
  url: true,
  description: true,
  eventTypes: true,
  ownerCredentialId: true,
  status: true,
  disabledReason: true,
  disabledAt: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookSubscriptionSelect;

/** One unarchived subscription of the workspace the reader may see (a removed one is gone for the API). */
export async function findWebhook(client: Client, workspaceId: string, id: string, reader: WebhookReader): Promise<WebhookRecord | null> {
  return clientOf(client).webhookSubscription.findFirst({ where: { workspaceId, id, archivedAt: null, ...readerWhere(reader) }, select });
}

/** One keyset page of the unarchived subscriptions the reader may see, in id order. */
export async function listWebhooksPage(client: Client, workspaceId: string, reader: WebhookReader, afterId: string | undefined, take: number): Promise<WebhookRecord[]> {
  return clientOf(client).webhookSubscription.findMany({ where: { workspaceId, archivedAt: null, ...readerWhere(reader), ...pageIds(afterId) }, orderBy: { id: 'asc' }, take, select });
}

export interface NewWebhook {
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: readonly string[];
  readonly ownerCredentialId: string;
  readonly secretCiphertext: Uint8Array;
  readonly secretKeyId: string;
}

export async function insertWebhook(tx: Tx, workspaceId: string, input: NewWebhook): Promise<WebhookRecord> {
  return tx.webhookSubscription.create({
    data: {
      workspaceId,
      url: input.url,
      description: input.description,
      eventTypes: [...input.eventTypes],
      ownerCredentialId: input.ownerCredentialId,
      secretCiphertext: Buffer.from(input.secretCiphertext),
      secretKeyId: input.secretKeyId,
    },
    select,
  });
}

export interface WebhookChanges {
  readonly url?: string;
  readonly description?: string | null;
  readonly eventTypes?: readonly string[];
  /** `disabled` with its reason and time, or `active` (which clears them). */
  readonly status?: { readonly to: 'active' } | { readonly to: 'disabled'; readonly reason: WebhookDisabledReason; readonly at: Date };
}

/**
 * Compare-and-set of an unarchived subscription by its owner: one `UPDATE … WHERE owner_credential_id = $owner
 * AND revision = $expected`. Another credential's subscription is `not_found`, as if it did not exist.
 */
export async function updateWebhookIfRevision(tx: Tx, workspaceId: string, id: string, ownerCredentialId: string, expectedRevision: number, change: WebhookChanges): Promise<CasOutcome> {
  const status = change.status;
  const { count } = await tx.webhookSubscription.updateMany({
    where: { workspaceId, id, ownerCredentialId, archivedAt: null, revision: expectedRevision },
    data: {
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.eventTypes === undefined ? {} : { eventTypes: [...change.eventTypes] }),
      ...(status === undefined ? {} : status.to === 'active' ? { status: 'active', disabledReason: null, disabledAt: null } : { status: 'disabled', disabledReason: status.reason, disabledAt: status.at }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await tx.webhookSubscription.count({ where: { workspaceId, id, ownerCredentialId, archivedAt: null } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Archives an unarchived subscription of its owner; false when it is missing, removed or another credential's. */
export async function archiveWebhook(tx: Tx, workspaceId: string, id: string, ownerCredentialId: string, at: Date): Promise<boolean> {
  const { count } = await tx.webhookSubscription.updateMany({ where: { workspaceId, id, ownerCredentialId, archivedAt: null }, data: { archivedAt: at, revision: { increment: 1 } } });
  return count === 1;
}

/** Which subscriptions a disabling applies to: named ones (optionally compare-and-set) or every one of some owners. */
export type WebhookSelection =
  | { readonly ids: readonly string[]; readonly expectedRevision?: number }
  | { readonly ownerCredentialIds: readonly string[] };

/**
 * Disables the selected active, unarchived subscriptions with a reason, and for each one records the audit
 * entry `webhook.disabled` and writes the outbox event `webhook.disabled`, in the caller's transaction (every
 * path that stops a subscription other than its owner's own PATCH goes through here, so none is ever silently
 * dead). Idempotent: one already
 * disabled is left alone (its first reason stays). Returns the ids it disabled.
 */
export async function disableWebhooks(
  tx: Tx,
  input: { workspaceId: string; selection: WebhookSelection; reason: WebhookDisabledReason; actor: AuditActor; now: Date },
): Promise<string[]> {
  const { workspaceId, selection, reason, actor, now } = input;
  const selected: Prisma.WebhookSubscriptionWhereInput =
    'ids' in selection
      ? { id: { in: [...selection.ids] }, ...(selection.expectedRevision === undefined ? {} : { revision: selection.expectedRevision }) }
      : { ownerCredentialId: { in: [...selection.ownerCredentialIds] } };
  if (('ids' in selection ? selection.ids : selection.ownerCredentialIds).length === 0) return [];
  // UPDATE … RETURNING in one statement: the status check and the change cannot be split by a concurrent writer.
  const rows = await tx.webhookSubscription.updateManyAndReturn({
    where: { workspaceId, archivedAt: null, status: { not: 'disabled' }, ...selected },
    data: { status: 'disabled', disabledReason: reason, disabledAt: now, revision: { increment: 1 } },
    select: { id: true, ownerCredentialId: true },
  });
  for (const row of rows) {
    await recordAudit(tx, { workspaceId, actor, action: 'webhook.disabled', targetType: 'webhook', targetId: row.id, metadata: { reason, ownerCredentialId: row.ownerCredentialId }, occurredAt: now });
    await appendOutboxEvent(tx, {
      workspaceId,
      aggregateType: 'webhook',
      aggregateId: row.id,
      eventType: 'webhook.disabled',
      // Never the url or event types: they are the owner's.
      payload: { webhook: { id: row.id, status: 'disabled', disabledReason: reason, disabledAt: now.toISOString() }, requestId: actor.requestId ?? null },
      occurredAt: now,
    });
  }
  return rows.map((r) => r.id);
}

/**
 * Rotation keeps a credential's identity: inside the rotation's transaction the successor takes over every
 * subscription the predecessor owned (removed ones too, for their history). Delivery history follows its
 * subscription (reads check the subscription's current owner), so nothing else moves.
 */
export async function transferWebhooks(tx: Tx, workspaceId: string, fromCredentialId: string, toCredentialId: string): Promise<number> {
  const { count } = await tx.webhookSubscription.updateMany({
    where: { workspaceId, ownerCredentialId: fromCredentialId },
    data: { ownerCredentialId: toCredentialId, revision: { increment: 1 } },
  });
  return count;
}

// ───── Delivery history ─────

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly subscriptionId: string;
  readonly ownerCredentialId: string;
  readonly eventId: string;
  readonly eventType: string;
  /**
   * The number of the latest attempt: the one about to be made while pending with no `nextRetryAt`, else the
   * one last made (one row per delivery, updated by each attempt).
   */
  readonly attempt: number;
  readonly status: WebhookDeliveryStatus;
  readonly responseStatusCode: number | null;
  readonly responseTimeMs: number | null;
  readonly error: string | null;
  readonly failureReason: string | null;
  readonly nextRetryAt: Date | null;
  readonly deliveredAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const deliverySelect = {
  id: true,
  workspaceId: true,
  subscriptionId: true,
  ownerCredentialId: true,
  eventId: true,
  eventType: true,
  attempt: true,
  status: true,
  responseStatusCode: true,
  responseTimeMs: true,
  error: true,
  failureReason: true,
  nextRetryAt: true,
  deliveredAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookDeliverySelect;

/**
 * Deliveries are read through their subscription's current owner (contract 6: nobody else reads them). A
 * delivery row's own `owner_credential_id` records whose authority it was fanned out under; after a rotation
 * the successor owns the subscription and so reads its whole history.
 */
const ownedBy = (workspaceId: string, ownerCredentialId: string): Prisma.WebhookDeliveryWhereInput => ({
  subscription: { workspaceId, ownerCredentialId, archivedAt: null },
});

/** One delivery of a subscription, only when `ownerCredentialId` owns the subscription now. */
export async function findWebhookDelivery(client: Client, workspaceId: string, subscriptionId: string, id: string, ownerCredentialId: string): Promise<WebhookDeliveryRecord | null> {
  return clientOf(client).webhookDelivery.findFirst({ where: { workspaceId, subscriptionId, id, ...ownedBy(workspaceId, ownerCredentialId) }, select: deliverySelect });
}

/** One keyset page of the deliveries of a subscription `ownerCredentialId` owns now, oldest first. */
export async function listWebhookDeliveriesPage(
  client: Client,
  workspaceId: string,
  subscriptionId: string,
  ownerCredentialId: string,
  filter: { status?: WebhookDeliveryStatus },
  afterId: string | undefined,
  take: number,
): Promise<WebhookDeliveryRecord[]> {
  return clientOf(client).webhookDelivery.findMany({
    where: { workspaceId, subscriptionId, ...ownedBy(workspaceId, ownerCredentialId), ...(filter.status ? { status: filter.status } : {}), ...pageIds(afterId) },
    orderBy: { id: 'asc' },
    take,
    select: deliverySelect,
  });
}

/** A delivery by id alone, for the delivery job (which holds the workspace id from its payload). */
export async function loadWebhookDelivery(client: Client, workspaceId: string, id: string): Promise<WebhookDeliveryRecord | null> {
  return clientOf(client).webhookDelivery.findFirst({ where: { workspaceId, id }, select: deliverySelect });
}

export interface DeliveryAttempt {
  readonly attempt: number;
  readonly status: WebhookDeliveryStatus;
  readonly responseStatusCode: number | null;
  readonly responseTimeMs: number | null;
  readonly error: string | null;
  readonly failureReason: string | null;
  readonly nextRetryAt: Date | null;
  readonly deliveredAt: Date | null;
}

/**
 * Records the outcome of one attempt; a delivery that already ended (succeeded or failed) is left alone. One
 * statement, straight through the pool outside a transaction (executeStatement; the delivery's hot path), in the caller's
 * transaction otherwise (a 410 disables the subscription with it). `updated_at` is set here as Prisma's @updatedAt
 * would: the relay's revival reads it.
 */
export async function recordDeliveryAttempt(client: Client, workspaceId: string, id: string, outcome: DeliveryAttempt): Promise<boolean> {
  const updated = await executeStatement(
    client,
    Prisma.sql`UPDATE webhook_deliveries
       SET attempt = ${outcome.attempt}::int, status = ${outcome.status}::webhook_delivery_status,
           response_status_code = ${outcome.responseStatusCode}::int, response_time_ms = ${outcome.responseTimeMs}::int,
           error = ${outcome.error}::text, failure_reason = ${outcome.failureReason}::text,
           next_retry_at = ${outcome.nextRetryAt}::timestamptz, delivered_at = ${outcome.deliveredAt}::timestamptz, updated_at = now()
     WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND status = 'pending'`,
  );
  return updated === 1;
}
