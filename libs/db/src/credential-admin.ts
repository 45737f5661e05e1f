import type { AppConfig } from '@workcell/config';
import type { CredentialKind } from '@workcell/credentials';
import { type AuditActor, recordAudit } from './audit.js';
import { issueCredential } from './credentials.js';
import { assertChangingAuthorization, type Db } from './database.js';
import { inAuthorizationTransaction, inTransaction } from './transactions.js';
import type { Prisma } from './generated/prisma/client.js';
import { disableWebhooks, transferWebhooks } from './webhooks.js';

/**
 * Credential administration: listing, minting, rotating and revoking the v1 credentials of one owner
 * (a member's personal access tokens, or a service account's credentials). Every read returns metadata
 * only, never the verifier; every change writes its audit event in the same transaction.
 */

/** Whose credentials: a member's (personal access tokens) or a service account's. */
export type CredentialOwner = { readonly memberId: string } | { readonly serviceAccountId: string };

export type CredentialStatusFilter = 'active' | 'expired' | 'revoked';

/** A credential's metadata as stored: never the verifier. */
export interface CredentialMetaRow {
  readonly id: string;
  readonly kind: CredentialKind;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly status: 'active' | 'expired' | 'revoked';
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly region: string;
  readonly cell: string;
  readonly memberId: string | null;
  readonly serviceAccountId: string | null;
  readonly rotatedFromId: string | null;
}

const META_SELECT = {
  id: true,
  kind: true,
  name: true,
  scopes: true,
  status: true,
  expiresAt: true,
  lastUsedAt: true,
  createdAt: true,
  revokedAt: true,
  region: true,
  cell: true,
  memberId: true,
  serviceAccountId: true,
  rotatedFromId: true,
} as const satisfies Prisma.CredentialSelect;

function ownerWhere(owner: CredentialOwner): Prisma.CredentialWhereInput {
  return 'memberId' in owner ? { memberId: owner.memberId, kind: 'personal_access_token' } : { serviceAccountId: owner.serviceAccountId, kind: 'service_account' };
}

const revokedWhere: Prisma.CredentialWhereInput = { OR: [{ status: 'revoked' }, { revokedAt: { not: null } }] };
const notRevokedWhere: Prisma.CredentialWhereInput = { status: { not: 'revoked' }, revokedAt: null };

/** Rows whose effective status (revoked, then expired, then stored) is `status` at `now`. */
function statusWhere(status: CredentialStatusFilter, now: Date): Prisma.CredentialWhereInput {
  switch (status) {
    case 'revoked':
      return revokedWhere;
    case 'expired':
      return { AND: [notRevokedWhere, { OR: [{ status: 'expired' }, { expiresAt: { lte: now } }] }] };
    case 'active':
      return { AND: [{ status: 'active', revokedAt: null }, { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }] };
  }
}

/** One keyset page (id > afterId, ascending) of an owner's credentials. */
export async function listCredentialPage(
  database: Db,
  input: { workspaceId: string; owner: CredentialOwner; status?: CredentialStatusFilter | undefined; now: Date; afterId: string | undefined; take: number },
): Promise<CredentialMetaRow[]> {
  return database.prisma.credential.findMany({
    where: {
      AND: [
        { workspaceId: input.workspaceId, ...ownerWhere(input.owner) },
        input.afterId === undefined ? {} : { id: { gt: input.afterId } },
        input.status === undefined ? {} : statusWhere(input.status, input.now),
      ],
    },
    orderBy: { id: 'asc' },
    take: input.take,
    select: META_SELECT,
  });
}

/** One credential of this owner in this workspace, or null (another owner's or workspace's id is as unknown as a missing one). */
export async function findOwnedCredential(database: Db, workspaceId: string, owner: CredentialOwner, id: string): Promise<CredentialMetaRow | null> {
  return database.prisma.credential.findFirst({ where: { workspaceId, id, ...ownerWhere(owner) }, select: META_SELECT });
}

function ownerInput(owner: CredentialOwner): { kind: CredentialKind; memberId?: string; serviceAccountId?: string } {
  return 'memberId' in owner ? { kind: 'personal_access_token', memberId: owner.memberId } : { kind: 'service_account', serviceAccountId: owner.serviceAccountId };
}

async function readMeta(tx: Db, workspaceId: string, id: string): Promise<CredentialMetaRow> {
  return tx.prisma.credential.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id } }, select: META_SELECT });
}

/** What the audit trail says about a credential: ids, kind, name, scopes and expiry; never its secret or verifier. */
function auditFacts(row: CredentialMetaRow): Record<string, unknown> {
  return {
    kind: row.kind,
    name: row.name,
    scopes: row.scopes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    ...(row.memberId ? { memberId: row.memberId } : {}),
    ...(row.serviceAccountId ? { serviceAccountId: row.serviceAccountId } : {}),
  };
}

/**
 * Mints a credential for the owner and records `credential.created`, in one transaction. Returns its
 * metadata and the token, which the caller shows once: only its verifier is stored.
 */
export async function mintCredential(
  database: Db,
  config: AppConfig,
  input: { workspaceId: string; owner: CredentialOwner; name: string; scopes: readonly string[]; expiresAt: Date | null; actor: AuditActor; now: Date },
): Promise<{ credential: CredentialMetaRow; token: string }> {
  return inTransaction(database, async (tx) => {
    const { id, token } = await issueCredential(tx, config, {
      workspaceId: input.workspaceId,
      ...ownerInput(input.owner),
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
    });
    const credential = await readMeta(tx, input.workspaceId, id);
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: 'credential.created',
      targetType: 'credential',
      targetId: id,
      metadata: auditFacts(credential),
      occurredAt: input.now,
    });
    return { credential, token };
  });
}

/**
 * Rotation: revokes the active credential and mints its successor (same owner, kind, name and scopes,
 * `rotated_from_id` pointing back) in one transaction, so the previous secret stops working the moment the
 * new one exists. `expiresAt` undefined keeps the previous expiry. Returns null when the credential is not
 * active any more (revoked, expired, or rotated concurrently): exactly one rotation of a credential wins.
 * Rotation keeps the credential's identity for what it owns: the successor takes over its webhook
 * subscriptions (and so their delivery history) in the same transaction, so deliveries never stop.
 */
export async function rotateOwnedCredential(
  database: Db,
  config: AppConfig,
  input: { workspaceId: string; owner: CredentialOwner; credentialId: string; expiresAt: Date | null | undefined; actor: AuditActor; now: Date },
): Promise<{ credential: CredentialMetaRow; token: string; previous: CredentialMetaRow } | null> {
  return inAuthorizationTransaction(database, input.workspaceId, async (tx) => {
    assertChangingAuthorization(input.workspaceId);
    const { count } = await tx.prisma.credential.updateMany({
      where: { AND: [{ workspaceId: input.workspaceId, id: input.credentialId, ...ownerWhere(input.owner) }, statusWhere('active', input.now)] },
      data: { status: 'revoked', revokedAt: input.now, revision: { increment: 1 } },
    });
    if (count === 0) return null;
    const previous = await readMeta(tx, input.workspaceId, input.credentialId);
    const { id, token } = await issueCredential(tx, config, {
      workspaceId: input.workspaceId,
      ...ownerInput(input.owner),
      name: previous.name,
      scopes: previous.scopes,
      expiresAt: input.expiresAt === undefined ? previous.expiresAt : input.expiresAt,
      rotatedFromId: previous.id,
    });
    const credential = await readMeta(tx, input.workspaceId, id);
    const webhooks = await transferWebhooks(tx, input.workspaceId, previous.id, id);
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: 'credential.rotated',
      targetType: 'credential',
      targetId: previous.id,
      metadata: { ...auditFacts(credential), successorId: id, webhooksTransferred: webhooks },
      occurredAt: input.now,
    });
    return { credential, token, previous };
  });
}

/**
 * Revokes one credential of the owner and records `credential.revoked`, in one transaction; the only other
 * change is that its webhook subscriptions become disabled (`owner_revoked`, audited, with an event).
 * 'unchanged' when it was already revoked (revocation is permanent and idempotent).
 */
export async function revokeOwnedCredential(
  database: Db,
  input: { workspaceId: string; owner: CredentialOwner; credentialId: string; actor: AuditActor; now: Date },
): Promise<'revoked' | 'unchanged' | 'not_found'> {
  return inAuthorizationTransaction(database, input.workspaceId, async (tx) => {
    assertChangingAuthorization(input.workspaceId);
    const where = { workspaceId: input.workspaceId, id: input.credentialId, ...ownerWhere(input.owner) };
    const { count } = await tx.prisma.credential.updateMany({ where: { AND: [where, notRevokedWhere] }, data: { status: 'revoked', revokedAt: input.now, revision: { increment: 1 } } });
    if (count === 0) return (await tx.prisma.credential.count({ where })) > 0 ? 'unchanged' : 'not_found';
    await recordRevocations(tx, input, [await readMeta(tx, input.workspaceId, input.credentialId)]);
    return 'revoked';
  });
}

/**
 * Revokes every unrevoked credential of a service account inside the caller's transaction, one audit event
 * each, and disables their webhook subscriptions (`owner_revoked`).
 */
export async function revokeServiceAccountCredentials(tx: Db, input: { workspaceId: string; serviceAccountId: string; actor: AuditActor; now: Date; reason: string }): Promise<string[]> {
  assertChangingAuthorization(input.workspaceId);
  const where = { AND: [{ workspaceId: input.workspaceId, serviceAccountId: input.serviceAccountId }, notRevokedWhere] };
  const rows = await tx.prisma.credential.findMany({ where, select: META_SELECT, orderBy: { id: 'asc' } });
  if (rows.length === 0) return [];
  await tx.prisma.credential.updateMany({ where: { AND: [where, { id: { in: rows.map((r) => r.id) } }] }, data: { status: 'revoked', revokedAt: input.now, revision: { increment: 1 } } });
  await recordRevocations(tx, input, rows, { reason: input.reason });
  return rows.map((r) => r.id);
}

/**
 * What revoking credentials also writes: one `credential.revoked` audit event each (with `facts` beside the
 * credential's own), and their webhook subscriptions disabled (`owner_revoked`, never silently dead).
 */
async function recordRevocations(tx: Db, input: { workspaceId: string; actor: AuditActor; now: Date }, rows: readonly CredentialMetaRow[], facts: Record<string, unknown> = {}): Promise<void> {
  const { workspaceId, actor, now } = input;
  for (const row of rows) {
    await recordAudit(tx, { workspaceId, actor, action: 'credential.revoked', targetType: 'credential', targetId: row.id, metadata: { ...auditFacts(row), ...facts }, occurredAt: now });
  }
  await disableWebhooks(tx, { workspaceId, selection: { ownerCredentialIds: rows.map((r) => r.id) }, reason: 'owner_revoked', actor, now });
}
