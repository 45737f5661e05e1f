import { type AuditActor, eventActorOf, recordAudit } from './audit.js';
import { Prisma } from './generated/prisma/client.js';
import { pageIds, unarchivedPage } from './keyset.js';
import { appendOutboxEvent, type EventActor } from './outbox.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { revisionedColumns } from './revisioned-rows.js';

/**
 * Signed (v2) webhook subscriptions and their delivery history. The signing secret is stored only encrypted
 * (`secret_ciphertext`, `secret_key_id`) and never selected by the reads the API serves; only the delivery
 * engine asks for it (`findWebhookTarget`). Removal archives (`archived_at`): the row stays for its deliveries.
 * Every query is scoped by the workspace id, and every API read or write by its reader (below): ownership is
 * part of the SQL statement, never a check after the fact.
 */

export type WebhookStatus = 'active' | 'paused' | 'disabled';

/** Why a subscription is disabled (docs/webhooks.md "Webhooks"; the registry's WEBHOOK_DISABLED_REASONS). */
export type WebhookDisabledReason = 'owner' | 'administrator' | 'owner_revoked' | 'owner_expired' | 'owner_inactive' | 'receiver_gone' | 'receiver_failing';

/**
 * Who reads: the owning credential (only its own subscriptions) or a workspace administrator (every
 * subscription's metadata). There is no third way to name subscriptions, so no read can forget the owner.
 */
export type WebhookReader = { readonly ownerCredentialId: string } | { readonly administrator: true };

function readerWhere(reader: WebhookReader): Prisma.WebhookSubscriptionWhereInput {
  return 'ownerCredentialId' in reader ? { ownerCredentialId: reader.ownerCredentialId } : {};
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
  /** Since when its receiver fails (the breaker's streak); null while deliveries succeed. */
  failingSince: true,
  /** Until when the previous signing secret still signs (a second signature) after a rotation. */
  previousSecretExpiresAt: true,
  ...revisionedColumns,
} as const satisfies Prisma.WebhookSubscriptionSelect;

export type WebhookRecord = Readonly<Omit<Prisma.WebhookSubscriptionGetPayload<{ select: typeof select }>, 'eventTypes'> & { eventTypes: readonly string[] }>;

/** One unarchived subscription of the workspace the reader may see (a removed one is gone for the API). */
export async function findWebhook(client: Db, workspaceId: string, id: string, reader: WebhookReader): Promise<WebhookRecord | null> {
  return client.prisma.webhookSubscription.findFirst({ where: { workspaceId, id, archivedAt: null, ...readerWhere(reader) }, select });
}

/** One keyset page of the unarchived subscriptions the reader may see, in id order. */
export async function listWebhooksPage(client: Db, workspaceId: string, reader: WebhookReader, afterId: string | undefined, take: number): Promise<WebhookRecord[]> {
  return client.prisma.webhookSubscription.findMany({ ...unarchivedPage(workspaceId, readerWhere(reader), afterId, take), select });
}

export interface NewWebhook {
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: readonly string[];
  readonly ownerCredentialId: string;
  readonly secretCiphertext: Uint8Array;
  readonly secretKeyId: string;
}

export async function insertWebhook(tx: Db, workspaceId: string, input: NewWebhook): Promise<WebhookRecord> {
  return tx.prisma.webhookSubscription.create({
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
  /** `disabled` with its reason and time, or `active` (which clears them and closes the breaker). */
  readonly status?: { readonly to: 'active' } | { readonly to: 'disabled'; readonly reason: WebhookDisabledReason; readonly at: Date };
  /** A new signing secret; the current one becomes the previous one, signing too until `previousExpiresAt`. */
  readonly rotateSecret?: { readonly ciphertext: Uint8Array; readonly keyId: string; readonly previousExpiresAt: Date };
}

/**
 * Compare-and-set of an unarchived subscription by its owner: one `UPDATE … WHERE owner_credential_id = $owner
 * AND revision = $expected`. Another credential's subscription is `not_found`, as if it did not exist.
 */
export async function updateWebhookIfRevision(tx: Db, workspaceId: string, id: string, ownerCredentialId: string, expectedRevision: number, change: WebhookChanges): Promise<CasOutcome> {
  const { status, rotateSecret } = change;
  const { count } = await tx.prisma.webhookSubscription.updateMany({
    where: { workspaceId, id, ownerCredentialId, archivedAt: null, revision: expectedRevision },
    data: {
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.eventTypes === undefined ? {} : { eventTypes: [...change.eventTypes] }),
      ...(status === undefined
        ? {}
        : status.to === 'active'
          ? { status: 'active', disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null, breakerUntil: null }
          : { status: 'disabled', disabledReason: status.reason, disabledAt: status.at }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) {
    if (status?.to === 'disabled') await abandonPendingDeliveries(tx, workspaceId, [id], 'subscription_disabled');
    if (rotateSecret) await rotateSigningSecret(tx, workspaceId, id, rotateSecret);
    return 'updated';
  }
  return (await tx.prisma.webhookSubscription.count({ where: { workspaceId, id, ownerCredentialId, archivedAt: null } })) > 0 ? 'version_conflict' : 'not_found';
}

/** The current secret becomes the previous one (one statement: both columns read before either is written). */
async function rotateSigningSecret(tx: Db, workspaceId: string, id: string, next: NonNullable<WebhookChanges['rotateSecret']>): Promise<void> {
  await tx.execute(Prisma.sql`UPDATE webhook_subscriptions
       SET previous_secret_ciphertext = secret_ciphertext, previous_secret_key_id = secret_key_id, previous_secret_expires_at = ${next.previousExpiresAt}::timestamptz,
           secret_ciphertext = ${Buffer.from(next.ciphertext)}::bytea, secret_key_id = ${next.keyId}::text
     WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid`);
}

/**
 * Ends the pending deliveries of stopped subscriptions as failed (docs/webhooks.md "Delivery": a disabled or removed
 * subscription receives nothing, and its owner may recover them later with `recoverSince`). A delivery already
 * attempted keeps its last attempt's failure; one never attempted gets `reason`. An attempt in flight is not
 * recorded afterwards (its row is no longer pending).
 */
export async function abandonPendingDeliveries(tx: Db, workspaceId: string, subscriptionIds: readonly string[], reason: 'subscription_disabled' | 'subscription_removed'): Promise<number> {
  if (subscriptionIds.length === 0) return 0;
  const message = reason === 'subscription_removed' ? 'the subscription was removed' : 'the subscription was disabled';
  return tx.execute(Prisma.sql`UPDATE webhook_deliveries
       SET status = 'failed', failure_reason = CASE WHEN attempt = 0 THEN ${reason}::text ELSE failure_reason END,
           error = CASE WHEN attempt = 0 THEN ${message}::text ELSE error END,
           next_attempt_at = NULL, lease_until = NULL, updated_at = now()
     WHERE workspace_id = ${workspaceId}::uuid AND subscription_id = ANY(${[...subscriptionIds]}::uuid[]) AND status = 'pending'`);
}

/**
 * `recoverSince`: every failed delivery of the subscription created since `since` is pending again, due now, with
 * one more attempt; the dispatcher sends them oldest first at the subscription's fair share. Returns how many.
 */
export async function recoverFailedDeliveries(tx: Db, workspaceId: string, subscriptionId: string, since: Date): Promise<number> {
  return tx.execute(Prisma.sql`UPDATE webhook_deliveries
       SET status = 'pending', attempts_allowed = attempt + 1, next_attempt_at = now(), lease_until = NULL, delivered_at = NULL, updated_at = now()
     WHERE workspace_id = ${workspaceId}::uuid AND subscription_id = ${subscriptionId}::uuid AND status = 'failed' AND created_at >= ${since}::timestamptz`);
}

/**
 * `sendTestEvent`: the event `webhook.test` (no channel fans it out) and its one delivery to this subscription,
 * due now, in the caller's transaction. Returns the delivery id.
 */
export async function insertTestDelivery(
  tx: Db,
  input: { workspaceId: string; subscriptionId: string; ownerCredentialId: string; attemptsAllowed: number; requestId: string | null; actor: EventActor | null; now: Date },
): Promise<string> {
  const { workspaceId, subscriptionId } = input;
  const sequence = await appendOutboxEvent(tx, {
    workspaceId,
    aggregateType: 'webhook',
    aggregateId: subscriptionId,
    eventType: 'webhook.test',
    payload: { webhook: { id: subscriptionId }, requestId: input.requestId },
    occurredAt: input.now,
    actor: input.actor,
    cause: null,
  });
  const [row] = await tx.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (workspace_id, subscription_id, owner_credential_id, event_id, event_type, attempt, attempts_allowed, status, next_attempt_at)
    SELECT e.workspace_id, ${subscriptionId}::uuid, ${input.ownerCredentialId}::uuid, e.id, e.event_type, 0, ${input.attemptsAllowed}::int, 'pending'::webhook_delivery_status, now()
      FROM outbox_events e WHERE e.workspace_id = ${workspaceId}::uuid AND e.sequence = ${sequence}
    RETURNING id::text AS id`;
  return row!.id;
}

/** Archives an unarchived subscription of its owner; false when it is missing, removed or another credential's. */
export async function archiveWebhook(tx: Db, workspaceId: string, id: string, ownerCredentialId: string, at: Date): Promise<boolean> {
  const { count } = await tx.prisma.webhookSubscription.updateMany({ where: { workspaceId, id, ownerCredentialId, archivedAt: null }, data: { archivedAt: at, revision: { increment: 1 } } });
  if (count === 1) await abandonPendingDeliveries(tx, workspaceId, [id], 'subscription_removed');
  return count === 1;
}

/** Which subscriptions a disabling applies to: named ones (optionally compare-and-set) or every one of some owners. */
export type WebhookSelection = { readonly ids: readonly string[]; readonly expectedRevision?: number } | { readonly ownerCredentialIds: readonly string[] };

/**
 * Disables the selected active, unarchived subscriptions with a reason, and for each one records the audit
 * entry `webhook.disabled` and writes the outbox event `webhook.disabled`, in the caller's transaction (every
 * path that stops a subscription other than its owner's own PATCH goes through here, so none is ever silently
 * dead). Idempotent: one already
 * disabled is left alone (its first reason stays). Returns the ids it disabled.
 */
export async function disableWebhooks(tx: Db, input: { workspaceId: string; selection: WebhookSelection; reason: WebhookDisabledReason; actor: AuditActor; now: Date }): Promise<string[]> {
  const { workspaceId, selection, reason, actor, now } = input;
  const selected: Prisma.WebhookSubscriptionWhereInput =
    'ids' in selection
      ? { id: { in: [...selection.ids] }, ...(selection.expectedRevision === undefined ? {} : { revision: selection.expectedRevision }) }
      : { ownerCredentialId: { in: [...selection.ownerCredentialIds] } };
  if (('ids' in selection ? selection.ids : selection.ownerCredentialIds).length === 0) return [];
  // UPDATE … RETURNING in one statement: the status check and the change cannot be split by a concurrent writer.
  const rows = await tx.prisma.webhookSubscription.updateManyAndReturn({
    where: { workspaceId, archivedAt: null, status: { not: 'disabled' }, ...selected },
    data: { status: 'disabled', disabledReason: reason, disabledAt: now, revision: { increment: 1 } },
    select: { id: true, ownerCredentialId: true },
  });
  await abandonPendingDeliveries(
    tx,
    workspaceId,
    rows.map((r) => r.id),
    'subscription_disabled',
  );
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
      actor: eventActorOf(actor),
      cause: null,
    });
  }
  return rows.map((r) => r.id);
}

/**
 * Rotation keeps a credential's identity: inside the rotation's transaction the successor takes over every
 * subscription the predecessor owned (removed ones too, for their history). Delivery history follows its
 * subscription (reads check the subscription's current owner), so nothing else moves.
 */
export async function transferWebhooks(tx: Db, workspaceId: string, fromCredentialId: string, toCredentialId: string): Promise<number> {
  const { count } = await tx.prisma.webhookSubscription.updateMany({
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
  /** Attempts started (one row per delivery, updated by each attempt); one may be in flight (`leaseUntil`). */
  readonly attempt: number;
  readonly attemptsAllowed: number;
  readonly status: WebhookDeliveryStatus;
  readonly responseStatusCode: number | null;
  readonly responseTimeMs: number | null;
  readonly error: string | null;
  readonly failureReason: string | null;
  /** When the next attempt is due, while pending. */
  readonly nextAttemptAt: Date | null;
  readonly leaseUntil: Date | null;
  readonly requestHeaders: unknown;
  readonly responseHeaders: unknown;
  readonly responseBody: string | null;
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
  attemptsAllowed: true,
  status: true,
  responseStatusCode: true,
  responseTimeMs: true,
  error: true,
  failureReason: true,
  nextAttemptAt: true,
  leaseUntil: true,
  requestHeaders: true,
  responseHeaders: true,
  responseBody: true,
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
export async function findWebhookDelivery(client: Db, workspaceId: string, subscriptionId: string, id: string, ownerCredentialId: string): Promise<WebhookDeliveryRecord | null> {
  return client.prisma.webhookDelivery.findFirst({ where: { workspaceId, subscriptionId, id, ...ownedBy(workspaceId, ownerCredentialId) }, select: deliverySelect });
}

/** One keyset page of the deliveries of a subscription `ownerCredentialId` owns now, oldest first. */
export async function listWebhookDeliveriesPage(
  client: Db,
  workspaceId: string,
  subscriptionId: string,
  ownerCredentialId: string,
  filter: { status?: WebhookDeliveryStatus },
  afterId: string | undefined,
  take: number,
): Promise<WebhookDeliveryRecord[]> {
  return client.prisma.webhookDelivery.findMany({
    where: { workspaceId, subscriptionId, ...ownedBy(workspaceId, ownerCredentialId), ...(filter.status ? { status: filter.status } : {}), ...pageIds(afterId) },
    orderBy: { id: 'asc' },
    take,
    select: deliverySelect,
  });
}
