import type { Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';
import { revisionedColumns } from './revisioned-rows.js';

/**
 * Legacy unsigned v0 webhook subscriptions (table legacy_webhooks), a resource of their own, separate from the
 * signed v2 WebhookSubscription (contract 4.3 rule 11). A v0 DELETE archives (`archived_at`): the row stays for
 * the delivery history the event engine will keep, but every read here except `findLegacyWebhook` leaves
 * archived rows out. Every query is scoped by the workspace id.
 */

const select = {
  id: true,
  workspaceId: true,
  url: true,
  events: true,
  ...revisionedColumns,
} as const satisfies Prisma.LegacyWebhookSelect;

export type LegacyWebhookRecord = Readonly<Omit<Prisma.LegacyWebhookGetPayload<{ select: typeof select }>, 'events'> & { events: readonly string[] }>;

/** One subscription of the workspace, archived or not. */
export async function findLegacyWebhook(client: Db, workspaceId: string, id: string): Promise<LegacyWebhookRecord | null> {
  return client.prisma.legacyWebhook.findFirst({ where: { workspaceId, id }, select });
}

/** One keyset page of the workspace's unarchived subscriptions in id order. */
export async function listLegacyWebhooksPage(client: Db, workspaceId: string, afterId: string | undefined, take: number): Promise<LegacyWebhookRecord[]> {
  return client.prisma.legacyWebhook.findMany({ ...unarchivedPage(workspaceId, {}, afterId, take), select });
}

export async function insertLegacyWebhook(tx: Db, workspaceId: string, input: { url: string; events: readonly string[] }): Promise<LegacyWebhookRecord> {
  return tx.prisma.legacyWebhook.create({ data: { workspaceId, url: input.url, events: [...input.events] }, select });
}

/** Sets `archived_at` on an unarchived subscription; false when it is missing or already archived. */
export async function archiveLegacyWebhook(tx: Db, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const { count } = await tx.prisma.legacyWebhook.updateMany({ where: { workspaceId, id, archivedAt: null }, data: { archivedAt: at, revision: { increment: 1 } } });
  return count === 1;
}
