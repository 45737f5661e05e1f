import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';

/**
 * The workspace's connected apps (issue 14), derived at request time from the rows that are the installations: its
 * service accounts (with the outcome of their webhook subscriptions' recent deliveries) and its calendar feed
 * tokens. Deleted service accounts and revoked feed tokens are uninstalled and left out. Only columns that carry no
 * secret are read (never a verifier, a webhook signing secret or a delivery's error text, which may quote the receiver).
 */

export interface IntegrationRecord {
  readonly id: string;
  readonly provider: 'service-account' | 'calendar-feed';
  readonly name: string;
  /** The service account's own status; 'active' for a feed token. */
  readonly accountStatus: 'active' | 'disabled';
  readonly installedAt: Date;
  /** The last successful delivery (service account) or feed fetch (calendar feed). */
  readonly lastSyncAt: Date | null;
  /** The latest finished delivery attempt of the service account's subscriptions (null: none yet). */
  readonly lastDeliveryStatus: 'succeeded' | 'failed' | null;
  readonly lastFailureReason: string | null;
  readonly lastResponseStatusCode: number | null;
  /** A subscription the delivery pipeline disabled because the receiver is gone. */
  readonly receiverGone: boolean;
}

const OWNED = Prisma.sql`JOIN credentials c ON c.workspace_id = d.workspace_id AND c.id = d.owner_credential_id WHERE d.workspace_id = s.workspace_id AND c.service_account_id = s.id`;

function integrations(workspaceId: string, where: Prisma.Sql, tail: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT * FROM (
      SELECT s.id::text AS id, 'service-account' AS provider, s.name, s.status::text AS "accountStatus", s.created_at AS "installedAt",
        ok.at AS "lastSyncAt", last.status::text AS "lastDeliveryStatus", last.failure_reason AS "lastFailureReason",
        last.response_status_code AS "lastResponseStatusCode",
        EXISTS (SELECT 1 FROM webhook_subscriptions w JOIN credentials c ON c.workspace_id = w.workspace_id AND c.id = w.owner_credential_id
                WHERE w.workspace_id = s.workspace_id AND c.service_account_id = s.id AND w.archived_at IS NULL AND w.disabled_reason = 'receiver_gone') AS "receiverGone"
      FROM service_accounts s
      LEFT JOIN LATERAL (SELECT d.status, d.failure_reason, d.response_status_code FROM webhook_deliveries d ${OWNED} AND d.status <> 'pending'
                         ORDER BY d.created_at DESC, d.id DESC LIMIT 1) last ON true
      LEFT JOIN LATERAL (SELECT max(d.delivered_at) AS at FROM webhook_deliveries d ${OWNED} AND d.status = 'succeeded') ok ON true
      WHERE s.workspace_id = ${workspaceId}::uuid AND s.archived_at IS NULL
      UNION ALL
      SELECT t.id::text, 'calendar-feed', coalesce(t.name, 'Calendar feed'), 'active', t.created_at, t.last_used_at, NULL, NULL, NULL, false
      FROM calendar_feed_tokens t
      WHERE t.workspace_id = ${workspaceId}::uuid AND t.revoked_at IS NULL
    ) i WHERE ${where} ${tail}`;
}

/** One keyset page of the workspace's integrations in id order (both sources have UUIDv7 ids: creation order). */
export async function listIntegrationsPage(client: Db, workspaceId: string, afterId: string | undefined, take: number): Promise<IntegrationRecord[]> {
  const where = afterId === undefined ? Prisma.sql`true` : Prisma.sql`i.id::uuid > ${afterId}::uuid`;
  return client.rows<IntegrationRecord>(integrations(workspaceId, where, Prisma.sql`ORDER BY i.id::uuid LIMIT ${take}`));
}

export async function findIntegration(client: Db, workspaceId: string, id: string): Promise<IntegrationRecord | null> {
  const rows = await client.rows<IntegrationRecord>(integrations(workspaceId, Prisma.sql`i.id::uuid = ${id}::uuid`, Prisma.sql``));
  return rows[0] ?? null;
}
