import type { Database } from './database.js';

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

export async function findTokenLookup(database: Database, verifier: Uint8Array<ArrayBuffer>): Promise<TokenLookup | null> {
  return database.prisma.credentialLookup.findUnique({
    where: { verifier },
    select: { tokenType: true, workspaceId: true, tokenId: true },
  });
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

export async function loadTeamToken(database: Database, workspaceId: string, id: string): Promise<TeamTokenRecord | null> {
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

export async function loadCredential(database: Database, workspaceId: string, id: string): Promise<CredentialRecord | null> {
  const row = await database.prisma.credential.findUnique({
    where: { workspaceId_id: { workspaceId, id } },
    select: {
      id: true,
      workspaceId: true,
      publicId: true,
      kind: true,
      name: true,
      verifier: true,
      scopes: true,
      status: true,
      expiresAt: true,
      region: true,
      cell: true,
      audience: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      workspace: { select: { id: true, region: true, cell: true, lockedAt: true } },
      member: { select: { id: true, status: true, memberRoles: { select: { role: { select: { permissions: true, archivedAt: true } } } } } },
      serviceAccount: { select: { id: true, status: true } },
    },
  });
  if (!row) return null;
  const { member, ...rest } = row;
  return {
    ...rest,
    member: member
      ? {
          id: member.id,
          status: member.status,
          permissions: [...new Set(member.memberRoles.filter((mr) => mr.role.archivedAt === null).flatMap((mr) => mr.role.permissions))],
        }
      : null,
  };
}

/** Records use at most once a minute per credential, so authentication is not a write per request. */
export async function touchCredential(database: Database, workspaceId: string, id: string, now: Date): Promise<void> {
  await database.prisma.credential.updateMany({
    where: { workspaceId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}

export async function touchTeamToken(database: Database, workspaceId: string, id: string, now: Date): Promise<void> {
  await database.prisma.teamToken.updateMany({
    where: { workspaceId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}
