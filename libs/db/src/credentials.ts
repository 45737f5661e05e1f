import type { AppConfig } from '@workcell/config';
import { type CredentialKind, generateFeedToken, generatePublicId, generateToken, verifierFor } from '@workcell/credentials';
import { type AuditActor, recordAudit } from './audit.js';
import { assertChangingAuthorization, type Db } from './database.js';
import { inAuthorizationTransaction } from './transactions.js';
import { disableWebhooks } from './webhooks.js';

/** Mints a v0 team token, stores its verifier and lookup row, and returns the token (shown once). */
export async function issueTeamToken(tx: Db, config: AppConfig, input: { workspaceId: string; name: string; createdByMemberId?: string | null }): Promise<string> {
  const token = generateToken('v0_team_token', config.region, config.cell);
  const verifier = verifierFor(config.credentialSecret, token);
  const row = await tx.prisma.teamToken.create({ data: { workspaceId: input.workspaceId, name: input.name, verifier, createdByMemberId: input.createdByMemberId ?? null } });
  await tx.prisma.credentialLookup.create({ data: { verifier, tokenType: 'team_token', workspaceId: input.workspaceId, tokenId: row.id } });
  return token;
}

export interface CredentialInput {
  readonly workspaceId: string;
  readonly kind: CredentialKind;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly memberId?: string;
  readonly serviceAccountId?: string;
  readonly expiresAt?: Date | null;
  /** The cell the credential belongs to; this cell's by default. */
  readonly region?: string;
  readonly cell?: string;
  /** The credential this one replaces (rotation). */
  readonly rotatedFromId?: string | null;
}

/** Mints a v1 credential, stores its verifier and lookup row, and returns its id and the token (shown once). */
export async function issueCredential(tx: Db, config: AppConfig, input: CredentialInput): Promise<{ id: string; token: string }> {
  const region = input.region ?? config.region;
  const cell = input.cell ?? config.cell;
  const token = generateToken(input.kind, region, cell);
  const verifier = verifierFor(config.credentialSecret, token);
  const row = await tx.prisma.credential.create({
    data: {
      workspaceId: input.workspaceId,
      publicId: generatePublicId(input.kind),
      kind: input.kind,
      name: input.name,
      verifier,
      scopes: [...input.scopes],
      region,
      cell,
      audience: config.baseUrls.v1,
      expiresAt: input.expiresAt ?? null,
      memberId: input.memberId ?? null,
      serviceAccountId: input.serviceAccountId ?? null,
      rotatedFromId: input.rotatedFromId ?? null,
    },
  });
  await tx.prisma.credentialLookup.create({ data: { verifier, tokenType: 'credential', workspaceId: input.workspaceId, tokenId: row.id } });
  return { id: row.id, token };
}

/**
 * Revokes one credential and records who did it, in one transaction. Only that credential changes, and its
 * webhook subscriptions become disabled (`owner_revoked`, never silently dead); returns false when it was not
 * active (already revoked, or not in this workspace).
 */
export async function revokeCredential(database: Db, workspaceId: string, credentialId: string, actor: AuditActor, now: Date): Promise<boolean> {
  return inAuthorizationTransaction(database, workspaceId, async (tx) => {
    assertChangingAuthorization(workspaceId);
    const { count } = await tx.prisma.credential.updateMany({
      where: { workspaceId, id: credentialId, status: 'active', revokedAt: null },
      data: { status: 'revoked', revokedAt: now, revision: { increment: 1 } },
    });
    if (count === 0) return false;
    await recordAudit(tx, { workspaceId, actor, action: 'credential.revoked', targetType: 'credential', targetId: credentialId, occurredAt: now });
    await disableWebhooks(tx, { workspaceId, selection: { ownerCredentialIds: [credentialId] }, reason: 'owner_revoked', actor, now });
    return true;
  });
}

/**
 * Mints a calendar feed token for a member. Feed tokens travel in a URL, so they carry no prefix; the
 * verifier is domain-separated ("feed:" + token) so a feed token can never verify as any other kind.
 */
export async function issueFeedToken(tx: Db, config: AppConfig, input: { workspaceId: string; memberId: string; name?: string }): Promise<string> {
  const token = generateFeedToken();
  const verifier = verifierFor(config.credentialSecret, `feed:${token}`);
  const row = await tx.prisma.calendarFeedToken.create({ data: { workspaceId: input.workspaceId, memberId: input.memberId, name: input.name ?? null, verifier } });
  await tx.prisma.credentialLookup.create({ data: { verifier, tokenType: 'calendar_feed_token', workspaceId: input.workspaceId, tokenId: row.id } });
  return token;
}
