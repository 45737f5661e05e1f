import type { Tx } from './credentials.js';
import type { Prisma } from './generated/prisma/client.js';
import { pageIds } from './keyset.js';
import { type CasOutcome, type Client, clientOf } from './transactions.js';

/**
 * Signed (v2) webhook subscriptions and their delivery history. The signing secret is stored only encrypted
 * (`secret_ciphertext`, `secret_key_id`) and never selected by the reads the API serves; only the delivery
 * engine asks for it (`findWebhookSecret`). Removal archives (`archived_at`): the row stays for its deliveries.
 * Every query is scoped by the workspace id.
 */

export type WebhookStatus = 'active' | 'paused' | 'disabled';

export interface WebhookRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: readonly string[];
  readonly ownerCredentialId: string;
  readonly status: WebhookStatus;
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
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookSubscriptionSelect;

/** One unarchived subscription of the workspace (a removed one is gone for the API). */
export async function findWebhook(client: Client, workspaceId: string, id: string): Promise<WebhookRecord | null> {
  return clientOf(client).webhookSubscription.findFirst({ where: { workspaceId, id, archivedAt: null }, select });
}

/** One keyset page of the workspace's unarchived subscriptions in id order. */
export async function listWebhooksPage(client: Client, workspaceId: string, afterId: string | undefined, take: number): Promise<WebhookRecord[]> {
  return clientOf(client).webhookSubscription.findMany({ where: { workspaceId, archivedAt: null, ...pageIds(afterId) }, orderBy: { id: 'asc' }, take, select });
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
  readonly status?: 'active' | 'disabled';
}

/** Compare-and-set of an unarchived subscription: one `UPDATE … WHERE revision = $expected`. */
export async function updateWebhookIfRevision(tx: Tx, workspaceId: string, id: string, expectedRevision: number, change: WebhookChanges): Promise<CasOutcome> {
  const { count } = await tx.webhookSubscription.updateMany({
    where: { workspaceId, id, archivedAt: null, revision: expectedRevision },
    data: {
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.eventTypes === undefined ? {} : { eventTypes: [...change.eventTypes] }),
      ...(change.status === undefined ? {} : { status: change.status }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await tx.webhookSubscription.count({ where: { workspaceId, id, archivedAt: null } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Archives an unarchived subscription; false when it is missing or already removed. */
export async function archiveWebhook(tx: Tx, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const { count } = await tx.webhookSubscription.updateMany({ where: { workspaceId, id, archivedAt: null }, data: { archivedAt: at, revision: { increment: 1 } } });
  return count === 1;
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
  nextRetryAt: true,
  deliveredAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookDeliverySelect;

/** One delivery of a subscription, only when `ownerCredentialId` owns it (contract 6: nobody else reads it). */
export async function findWebhookDelivery(client: Client, workspaceId: string, subscriptionId: string, id: string, ownerCredentialId: string): Promise<WebhookDeliveryRecord | null> {
  return clientOf(client).webhookDelivery.findFirst({ where: { workspaceId, subscriptionId, id, ownerCredentialId }, select: deliverySelect });
}

/** One keyset page of a subscription's deliveries owned by `ownerCredentialId`, oldest first. */
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
    where: { workspaceId, subscriptionId, ownerCredentialId, ...(filter.status ? { status: filter.status } : {}), ...pageIds(afterId) },
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
  readonly nextRetryAt: Date | null;
  readonly deliveredAt: Date | null;
}

/** Records the outcome of one attempt; a delivery that already ended (succeeded or failed) is left alone. */
export async function recordDeliveryAttempt(client: Client, workspaceId: string, id: string, outcome: DeliveryAttempt): Promise<boolean> {
  const { count } = await clientOf(client).webhookDelivery.updateMany({ where: { workspaceId, id, status: 'pending' }, data: { ...outcome } });
  return count === 1;
}
