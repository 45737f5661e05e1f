import type { Db } from './database.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Reads that authentication needs. A token is found through the global credential_lookups table (its
 * verifier is the key), then its row is read within its own workspace. Nothing here is cached: every
 * request sees the committed state of revocation, expiry, member status, permissions and workspace lock.
 */

export interface TokenLookup {
  readonly tokenType: 'team_token' | 'credential' | 'calendar_feed_token';
  readonly workspaceId: string;
  readonly tokenId: string;
}

/**
 * One statement per lookup, by its verifier alone: Prisma would batch concurrent findUnique calls into one
 * `verifier IN (…)` statement, which a table distributed by verifier answers from several shards
 * (docs/scale-out.md); this way every lookup is routed to one.
 */
export async function findTokenLookup(database: Db, verifier: Uint8Array<ArrayBuffer>): Promise<TokenLookup | null> {
  const rows = await database.rows<TokenLookup>(Prisma.sql`
    SELECT token_type::text AS "tokenType", workspace_id::text AS "workspaceId", token_id::text AS "tokenId"
    FROM credential_lookups WHERE verifier = ${Buffer.from(verifier)}`);
  return rows[0] ?? null;
}

export interface TeamTokenRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly verifier: Uint8Array;
  readonly revokedAt: Date | null;
  /** The member who minted the token (v0 acts as this member where an action needs one, e.g. timers). */
  readonly createdByMemberId: string | null;
  readonly workspace: { readonly id: string; readonly name: string; readonly lockedAt: Date | null };
}

export async function loadTeamToken(database: Db, workspaceId: string, id: string): Promise<TeamTokenRecord | null> {
  return database.prisma.teamToken.findUnique({
    where: { workspaceId_id: { workspaceId, id } },
    select: { id: true, workspaceId: true, verifier: true, revokedAt: true, createdByMemberId: true, workspace: { select: { id: true, name: true, lockedAt: true } } },
  });
}

export interface CredentialRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly publicId: string;
  readonly kind: 'personal_access_token' | 'service_account' | 'legacy_v1';
  readonly name: string;
  readonly verifier: Uint8Array;
  readonly scopes: readonly string[];
  readonly status: 'active' | 'expired' | 'revoked';
  readonly expiresAt: Date | null;
  readonly region: string;
  readonly cell: string;
  readonly audience: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
  readonly workspace: { readonly id: string; readonly region: string; readonly cell: string; readonly lockedAt: Date | null };
  /** The owning member, with the permission keys of every role it currently holds. */
  readonly member: { readonly id: string; readonly status: 'active' | 'disabled'; readonly permissions: readonly string[] } | null;
  readonly serviceAccount: { readonly id: string; readonly status: 'active' | 'disabled' } | null;
}

interface CredentialRow extends Omit<CredentialRecord, 'workspace' | 'member' | 'serviceAccount'> {
  readonly workspaceRegion: string;
  readonly workspaceCell: string;
  readonly workspaceLockedAt: Date | null;
  readonly memberId: string | null;
  readonly memberStatus: 'active' | 'disabled' | null;
  readonly permissions: string[];
  readonly serviceAccountId: string | null;
  readonly serviceAccountStatus: 'active' | 'disabled' | null;
}

/**
 * A credential with its workspace, its owning member (and the permissions of the member's unarchived roles) or
 * service account: one statement straight through the pool (it runs for every credential an instance verifies
 * cold, and for each webhook owner on every relay run; Prisma's nested select sent several).
 */
export async function loadCredential(database: Db, workspaceId: string, id: string): Promise<CredentialRecord | null> {
  const [row] = await database.rows<CredentialRow>(Prisma.sql`
      SELECT c.id::text AS id, c.workspace_id::text AS "workspaceId", c.public_id AS "publicId", c.kind::text AS kind, c.name,
             c.verifier, c.scopes, c.status::text AS status, c.expires_at AS "expiresAt", c.region, c.cell, c.audience,
             c.created_at AS "createdAt", c.last_used_at AS "lastUsedAt", c.revoked_at AS "revokedAt",
             w.region AS "workspaceRegion", w.cell AS "workspaceCell", w.locked_at AS "workspaceLockedAt",
             m.id::text AS "memberId", m.status::text AS "memberStatus",
             ARRAY(
               SELECT DISTINCT permission
               FROM member_roles mr
               JOIN roles r ON r.workspace_id = mr.workspace_id AND r.id = mr.role_id AND r.archived_at IS NULL
               CROSS JOIN LATERAL unnest(r.permissions) AS permission
               WHERE mr.workspace_id = c.workspace_id AND mr.member_id = m.id
             ) AS permissions,
             sa.id::text AS "serviceAccountId", sa.status::text AS "serviceAccountStatus"
      FROM credentials c
      JOIN workspaces w ON w.id = c.workspace_id
      LEFT JOIN workspace_members m ON m.workspace_id = c.workspace_id AND m.id = c.member_id
      LEFT JOIN service_accounts sa ON sa.workspace_id = c.workspace_id AND sa.id = c.service_account_id
      WHERE c.workspace_id = ${workspaceId}::uuid AND c.id = ${id}::uuid`);
  if (!row) return null;
  const { workspaceRegion, workspaceCell, workspaceLockedAt, memberId, memberStatus, permissions, serviceAccountId, serviceAccountStatus, ...credential } = row;
  return {
    ...credential,
    workspace: { id: credential.workspaceId, region: workspaceRegion, cell: workspaceCell, lockedAt: workspaceLockedAt },
    member: memberId === null ? null : { id: memberId, status: memberStatus!, permissions },
    serviceAccount: serviceAccountId === null ? null : { id: serviceAccountId, status: serviceAccountStatus! },
  };
}

/** Records use at most once a minute per credential, so authentication is not a write per request. */
export async function touchCredential(database: Db, workspaceId: string, id: string, now: Date): Promise<void> {
  await database.prisma.credential.updateMany({
    where: { workspaceId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}

export async function touchTeamToken(database: Db, workspaceId: string, id: string, now: Date): Promise<void> {
  await database.prisma.teamToken.updateMany({
    where: { workspaceId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}
