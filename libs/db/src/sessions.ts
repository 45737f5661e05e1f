import { recordAudit } from './audit.js';
import type { Db } from './database.js';
import { inTransaction } from './transactions.js';

/**
 * Sign-in links and browser sessions (docs/authentication.md "Signing in"). Both belong to a user, the global
 * identity, so their tables are global (reference tables, like users) and every statement is keyed by the user or
 * by a hash. Only hashes are stored: the token of a link and the id of a session (the cookie) never are. Security
 * events are audited in the trail of every workspace the person is an active member of, acting as that member.
 */

/** The person's memberships a session may act through: active, unremoved, in an unlocked workspace. */
export interface SessionMembership {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly memberId: string;
}

export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** The user with this (lower-case) address, or null. */
export async function findUserIdByEmail(database: Db, email: string): Promise<string | null> {
  return (await database.prisma.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
}

/** Stores a new sign-in link of the user whose e-mail is due now (no token yet: the worker draws it when it mails the link). */
export async function createSignInLink(database: Db, input: { userId: string; now: Date; expiresAt: Date }): Promise<string> {
  const row = await database.prisma.signInLink.create({ data: { userId: input.userId, createdAt: input.now, expiresAt: input.expiresAt, mailDueAt: input.now }, select: { id: true } });
  return row.id;
}

/** A sign-in link whose e-mail is due, locked by the worker's transaction that mails it. */
export interface DueSignInMail {
  readonly id: string;
  readonly email: string;
  readonly expiresAt: Date;
  readonly attempts: number;
}

/**
 * Claims the link whose e-mail is due longest, not yet expired, skipping those another worker holds (FOR UPDATE SKIP
 * LOCKED: the table is the queue). The lock lasts the caller's transaction, which mails it or rolls back.
 */
export async function lockDueSignInMail(tx: Db, now: Date): Promise<DueSignInMail | null> {
  const rows = await tx.prisma.$queryRaw<{ id: string; email: string; expires_at: Date; mail_attempts: number }[]>`
    SELECT l.id::text, u.email, l.expires_at, l.mail_attempts FROM sign_in_links l JOIN users u ON u.id = l.user_id
    WHERE l.mail_due_at <= ${now} AND l.expires_at > ${now}
    ORDER BY l.mail_due_at LIMIT 1
    FOR UPDATE OF l SKIP LOCKED`;
  const row = rows[0];
  return row ? { id: row.id, email: row.email, expiresAt: row.expires_at, attempts: row.mail_attempts } : null;
}

/** Records the mailed link's token hash (in the transaction that holds its lock and commits after the send). */
export async function recordSignInLinkMailed(tx: Db, id: string, tokenHash: Uint8Array<ArrayBuffer>): Promise<void> {
  await tx.prisma.$executeRaw`
    UPDATE sign_in_links SET token_hash = ${tokenHash}, mail_due_at = NULL, mail_attempts = mail_attempts + 1
    WHERE id = ${id}::uuid AND mail_due_at IS NOT NULL`;
}

/** After a failed send: the next attempt is due at `dueAt` (compare-and-set: a link mailed meanwhile stays mailed). */
export async function postponeSignInMail(database: Db, id: string, dueAt: Date): Promise<void> {
  await database.prisma.$executeRaw`
    UPDATE sign_in_links SET mail_due_at = ${dueAt}, mail_attempts = mail_attempts + 1
    WHERE id = ${id}::uuid AND mail_due_at IS NOT NULL`;
}

/** Whether a link with this token hash exists and is still usable (a read: GET never consumes). */
export async function signInLinkState(database: Db, tokenHash: Uint8Array<ArrayBuffer>, now: Date): Promise<'usable' | 'used' | 'expired' | 'unknown'> {
  const row = await database.prisma.signInLink.findUnique({ where: { tokenHash }, select: { usedAt: true, expiresAt: true } });
  if (!row) return 'unknown';
  if (row.usedAt !== null) return 'used';
  return row.expiresAt <= now ? 'expired' : 'usable';
}

/** Every active membership of the user (a read across workspaces: the person's own list). */
export async function sessionMemberships(client: Db, userId: string): Promise<SessionMembership[]> {
  const rows = await client.prisma.workspaceMember.findMany({
    where: { userId, status: 'active', removedAt: null, workspace: { lockedAt: null } },
    select: { id: true, workspaceId: true, workspace: { select: { name: true } } },
    orderBy: [{ workspaceId: 'asc' }],
  });
  return rows.map((r) => ({ workspaceId: r.workspaceId, workspaceName: r.workspace.name, memberId: r.id }));
}

async function auditForUser(tx: Db, userId: string, action: string, targetType: string, targetId: string, requestId: string | null, now: Date, metadata: Record<string, unknown> = {}): Promise<void> {
  for (const m of await sessionMemberships(tx, userId)) {
    await recordAudit(tx, {
      workspaceId: m.workspaceId,
      actor: { credentialId: null, principalType: 'member', principalId: m.memberId, requestId },
      action,
      targetType,
      targetId,
      metadata,
      occurredAt: now,
    });
  }
}

export type SignInOutcome = { readonly outcome: 'signed_in'; readonly userId: string; readonly sessionId: string } | { readonly outcome: 'used' | 'expired' | 'unknown' };

/**
 * Uses a sign-in link once and starts a session, in one transaction: the link's compare-and-set (`used_at IS NULL
 * AND expires_at > now`) lets exactly one of concurrent attempts through; the session stores its id's hash only.
 * `session.started` is audited in each of the person's workspaces.
 */
export async function signInWithLink(database: Db, input: NewSession & { tokenHash: Uint8Array<ArrayBuffer> }): Promise<SignInOutcome> {
  return inTransaction(database, async (tx) => {
    const used = await tx.prisma.$queryRaw<{ user_id: string }[]>`
      UPDATE sign_in_links SET used_at = ${input.now}
      WHERE token_hash = ${input.tokenHash} AND used_at IS NULL AND expires_at > ${input.now}
      RETURNING user_id::text`;
    const userId = used[0]?.user_id;
    if (userId === undefined) {
      const row = await tx.prisma.signInLink.findUnique({ where: { tokenHash: input.tokenHash }, select: { usedAt: true } });
      return { outcome: !row ? 'unknown' : row.usedAt !== null ? 'used' : 'expired' } as const;
    }
    return { outcome: 'signed_in', userId, sessionId: await insertSession(tx, userId, input, 'email_link') } as const;
  });
}

/** What starting a session stores: its id's hash, when, and until when at most. */
export interface NewSession {
  readonly sessionIdHash: Uint8Array<ArrayBuffer>;
  readonly now: Date;
  readonly sessionExpiresAt: Date;
  readonly requestId: string | null;
}

/** A new session of the user, audited `session.started` (with how it started) in each of the person's workspaces. */
async function insertSession(tx: Db, userId: string, input: NewSession, method: 'email_link' | 'invitation'): Promise<string> {
  const session = await tx.prisma.session.create({
    data: { userId, idHash: input.sessionIdHash, createdAt: input.now, lastSeenAt: input.now, expiresAt: input.sessionExpiresAt },
    select: { id: true },
  });
  await auditForUser(tx, userId, 'session.started', 'session', session.id, input.requestId, input.now, { method });
  return session.id;
}

export type InviteeSessionOutcome = { readonly outcome: 'signed_in'; readonly userId: string; readonly sessionId: string } | { readonly outcome: 'not_only_membership' };

/**
 * Starts a session for the user of a member who has just accepted an invitation, when that membership is the
 * person's only active one: the invitation's token then grants nothing through the session that the acceptance
 * did not grant already (a person with other workspaces signs in by e-mail link, as the token may be days old).
 */
export async function startInviteeSession(database: Db, input: NewSession & { workspaceId: string; memberId: string }): Promise<InviteeSessionOutcome> {
  return inTransaction(database, async (tx) => {
    const member = await tx.prisma.workspaceMember.findUnique({ where: { workspaceId_id: { workspaceId: input.workspaceId, id: input.memberId } }, select: { userId: true } });
    if (!member) return { outcome: 'not_only_membership' } as const;
    const memberships = await sessionMemberships(tx, member.userId);
    if (memberships.length !== 1 || memberships[0]?.memberId !== input.memberId) return { outcome: 'not_only_membership' } as const;
    return { outcome: 'signed_in', userId: member.userId, sessionId: await insertSession(tx, member.userId, input, 'invitation') } as const;
  });
}

/**
 * The live session with this id hash, its last use moved to now in the same statement: one compare-and-set that
 * refuses a revoked session, one past its absolute expiry and one idle since `idleSince`. Null otherwise.
 */
export async function touchSession(database: Db, idHash: Uint8Array<ArrayBuffer>, now: Date, idleSince: Date): Promise<SessionRecord | null> {
  const rows = await database.prisma.$queryRaw<{ id: string; user_id: string; created_at: Date; expires_at: Date }[]>`
    UPDATE sessions SET last_seen_at = ${now}
    WHERE id_hash = ${idHash} AND revoked_at IS NULL AND expires_at > ${now} AND last_seen_at > ${idleSince}
    RETURNING id::text, user_id::text, created_at, expires_at`;
  const row = rows[0];
  if (!row) return null;
  const user = await database.prisma.user.findUnique({ where: { id: row.user_id }, select: { email: true, name: true } });
  if (!user) return null;
  return { id: row.id, userId: row.user_id, email: user.email, name: user.name, createdAt: row.created_at, expiresAt: row.expires_at };
}

/** Ends one session of the user (compare-and-set on `revoked_at IS NULL`), audited as `session.ended`. */
export async function endSession(database: Db, input: { userId: string; sessionId: string; now: Date; requestId: string | null }): Promise<boolean> {
  return inTransaction(database, async (tx) => {
    const { count } = await tx.prisma.session.updateMany({ where: { id: input.sessionId, userId: input.userId, revokedAt: null }, data: { revokedAt: input.now } });
    if (count === 0) return false;
    await auditForUser(tx, input.userId, 'session.ended', 'session', input.sessionId, input.requestId, input.now);
    return true;
  });
}

/** Ends every live session of the user ("sign out everywhere"), audited once as `session.ended_all` with the count. */
export async function endAllSessions(database: Db, input: { userId: string; sessionId: string; now: Date; requestId: string | null }): Promise<number> {
  return inTransaction(database, async (tx) => {
    const { count } = await tx.prisma.session.updateMany({ where: { userId: input.userId, revokedAt: null }, data: { revokedAt: input.now } });
    await auditForUser(tx, input.userId, 'session.ended_all', 'session', input.sessionId, input.requestId, input.now, { sessionsEnded: count });
    return count;
  });
}
