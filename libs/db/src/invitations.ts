import type { Prisma } from './generated/prisma/client.js';
import { assertChangingAuthorization, type Db } from './database.js';

/**
 * Workspace invitations (docs/invitations.md). The stored status is `pending` until the invitation is accepted or
 * revoked; a pending invitation past `expires_at` reads as `expired` everywhere (`effectiveStatus`, and the list
 * filters below decide it in SQL against the same instant), so no read ever shows a stale `pending`. The stored status
 * becomes `expired` only when a new invitation for the same address needs the one-pending-per-address slot.
 * Every query is scoped by the workspace id.
 */

export type InvitationStatusValue = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationRecord {
  readonly id: string;
  readonly workspaceId: string;
  /** Personal data: the caller decides whether it may be shown. */
  readonly email: string;
  readonly status: InvitationStatusValue;
  readonly expiresAt: Date;
  readonly message: string | null;
  readonly lastSentAt: Date;
  readonly revokedAt: Date | null;
  readonly invitedByMemberId: string | null;
  readonly invitedByServiceAccountId: string | null;
  readonly acceptedMemberId: string | null;
  readonly acceptedAt: Date | null;
  readonly revision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** The roles offered, in id order. */
  readonly roleIds: readonly string[];
}

const invitationSelect = {
  id: true,
  workspaceId: true,
  email: true,
  status: true,
  expiresAt: true,
  message: true,
  lastSentAt: true,
  revokedAt: true,
  invitedByMemberId: true,
  invitedByServiceAccountId: true,
  acceptedMemberId: true,
  acceptedAt: true,
  revision: true,
  createdAt: true,
  updatedAt: true,
  roles: { select: { roleId: true }, orderBy: { roleId: 'asc' } },
} as const;

type InvitationRow = Omit<InvitationRecord, 'roleIds'> & { roles: { roleId: string }[] };

function toRecord({ roles, ...row }: InvitationRow): InvitationRecord {
  return Object.assign(row, { roleIds: roles.map((r) => r.roleId) });
}

/** The status a reader sees at `now`: a pending invitation past its expiry is expired. */
export function effectiveStatus(row: Pick<InvitationRecord, 'status' | 'expiresAt'>, now: Date): InvitationStatusValue {
  return row.status === 'pending' && row.expiresAt.getTime() <= now.getTime() ? 'expired' : row.status;
}

/** The rows of an effective status at `now`, as a Prisma filter. */
function statusWhere(status: InvitationStatusValue, now: Date): Prisma.InvitationWhereInput {
  if (status === 'pending') return { status: 'pending', expiresAt: { gt: now } };
  if (status === 'expired') return { OR: [{ status: 'expired' }, { status: 'pending', expiresAt: { lte: now } }] };
  return { status };
}

export async function findInvitation(client: Db, workspaceId: string, id: string): Promise<InvitationRecord | null> {
  const row = await client.prisma.invitation.findFirst({ where: { workspaceId, id }, select: invitationSelect });
  return row ? toRecord(row) : null;
}

/** One keyset page of the workspace's invitations in id (creation) order, optionally of one effective status at `now`. */
export async function listInvitationsPage(
  client: Db,
  workspaceId: string,
  filter: { status?: InvitationStatusValue | undefined; now: Date },
  afterId: string | undefined,
  take: number,
): Promise<InvitationRecord[]> {
  const rows = await client.prisma.invitation.findMany({
    where: {
      workspaceId,
      ...(filter.status === undefined ? {} : statusWhere(filter.status, filter.now)),
      ...(afterId === undefined ? {} : { id: { gt: afterId } }),
    },
    orderBy: { id: 'asc' },
    take,
    select: invitationSelect,
  });
  return rows.map(toRecord);
}

/**
 * Whether the address (lower case) has a membership in the workspace: active, deactivated, or removed (removal is
 * final: the row stays, and re-admitting it would bring the removed member's old credentials back to life).
 */
export async function isMemberEmail(tx: Db, workspaceId: string, email: string): Promise<boolean> {
  return (await tx.prisma.workspaceMember.count({ where: { workspaceId, user: { email } } })) > 0;
}

/**
 * The address's pending invitation that has not expired at `now`, if any; one that has expired is marked `expired`
 * first, freeing the one-pending-per-address slot (invitations_one_pending_per_email_key) for a new invitation.
 */
export async function pendingInvitationFor(tx: Db, workspaceId: string, email: string, now: Date): Promise<string | null> {
  await tx.prisma.invitation.updateMany({ where: { workspaceId, email, status: 'pending', expiresAt: { lte: now } }, data: { status: 'expired', revision: { increment: 1 } } });
  const row = await tx.prisma.invitation.findFirst({ where: { workspaceId, email, status: 'pending' }, select: { id: true } });
  return row?.id ?? null;
}

export interface NewInvitation {
  readonly email: string;
  readonly roleIds: readonly string[];
  readonly message: string | null;
  readonly expiresAt: Date;
  readonly invitedBy: { readonly memberId: string } | { readonly serviceAccountId: string };
  readonly now: Date;
}

export async function insertInvitation(tx: Db, workspaceId: string, input: NewInvitation): Promise<InvitationRecord> {
  const { id } = await tx.prisma.invitation.create({
    data: {
      workspaceId,
      email: input.email,
      message: input.message,
      expiresAt: input.expiresAt,
      lastSentAt: input.now,
      createdAt: input.now,
      updatedAt: input.now,
      ...('memberId' in input.invitedBy ? { invitedByMemberId: input.invitedBy.memberId } : { invitedByServiceAccountId: input.invitedBy.serviceAccountId }),
    },
    select: { id: true },
  });
  await tx.prisma.invitationRole.createMany({ data: input.roleIds.map((roleId) => ({ workspaceId, invitationId: id, roleId })) });
  return (await findInvitation(tx, workspaceId, id))!;
}

export type InvitationChange = { readonly outcome: 'updated'; readonly row: InvitationRecord } | { readonly outcome: 'not_found' | 'not_pending' | 'too_soon'; readonly row: InvitationRecord | null };

/**
 * Resend: one `UPDATE … WHERE` a pending, unexpired invitation last sent at or before `sentBefore` (the bound on
 * resends) moves its `last_sent_at` to `now`. The expiry is left as it is. Otherwise says why not.
 */
export async function markInvitationResent(tx: Db, workspaceId: string, id: string, now: Date, sentBefore: Date): Promise<InvitationChange> {
  const { count } = await tx.prisma.invitation.updateMany({
    where: { workspaceId, id, status: 'pending', expiresAt: { gt: now }, lastSentAt: { lte: sentBefore } },
    data: { lastSentAt: now, revision: { increment: 1 } },
  });
  const row = await findInvitation(tx, workspaceId, id);
  if (count === 1) return { outcome: 'updated', row: row! };
  if (!row) return { outcome: 'not_found', row };
  return { outcome: effectiveStatus(row, now) === 'pending' ? 'too_soon' : 'not_pending', row };
}

/** Revoke: one `UPDATE … WHERE` a pending, unexpired invitation becomes `revoked`. Otherwise says why not. */
export async function markInvitationRevoked(tx: Db, workspaceId: string, id: string, now: Date): Promise<InvitationChange> {
  const { count } = await tx.prisma.invitation.updateMany({
    where: { workspaceId, id, status: 'pending', expiresAt: { gt: now } },
    data: { status: 'revoked', revokedAt: now, revision: { increment: 1 } },
  });
  const row = await findInvitation(tx, workspaceId, id);
  if (count === 1) return { outcome: 'updated', row: row! };
  return { outcome: row ? 'not_pending' : 'not_found', row };
}

// ─── the e-mail and its acceptance ───────────────────────────────────────────

/** The invitation, its workspace's name and its inviter's display name, its row locked (FOR UPDATE) until the transaction ends. */
export async function lockInvitationForMail(tx: Db, workspaceId: string, id: string): Promise<{ invitation: InvitationRecord; workspaceName: string; inviterName: string | null } | null> {
  const locked = await tx.prisma.$queryRaw<{ id: string }[]>`SELECT id::text FROM invitations WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  const row = await tx.prisma.invitation.findFirst({
    where: { workspaceId, id },
    select: { ...invitationSelect, workspace: { select: { name: true } }, invitedByMember: { select: { user: { select: { name: true } } } }, invitedByServiceAccount: { select: { name: true } } },
  });
  if (!row) return null;
  const { workspace, invitedByMember, invitedByServiceAccount, ...invitation } = row;
  return { invitation: toRecord(invitation), workspaceName: workspace.name, inviterName: invitedByMember?.user.name ?? invitedByServiceAccount?.name ?? null };
}

/** Whether the message of this id (the outbox event that asked for it) was already sent. */
export async function invitationMessageSent(tx: Db, workspaceId: string, id: string): Promise<boolean> {
  return (await tx.prisma.invitationMessage.count({ where: { workspaceId, id } })) > 0;
}

/** Records a sent message and the hash of the token it carried. */
export async function insertInvitationMessage(tx: Db, workspaceId: string, message: { id: string; invitationId: string; tokenHash: Buffer; sentAt: Date }): Promise<void> {
  await tx.prisma.invitationMessage.create({ data: { workspaceId, id: message.id, invitationId: message.invitationId, tokenHash: new Uint8Array(message.tokenHash), sentAt: message.sentAt } });
}

/** Whether some message of the workspace carried the token of this hash (a plain read, before any lock is taken). */
export async function invitationTokenKnown(client: Db, workspaceId: string, tokenHash: Buffer): Promise<boolean> {
  return (await client.prisma.invitationMessage.count({ where: { workspaceId, tokenHash: new Uint8Array(tokenHash) } })) > 0;
}

/** The invitation one of whose messages carried the token of this hash, its row locked (FOR UPDATE). */
export async function lockInvitationByToken(tx: Db, workspaceId: string, tokenHash: Buffer): Promise<InvitationRecord | null> {
  const found = await tx.prisma.$queryRaw<{ id: string }[]>`
    SELECT i.id::text FROM invitation_messages m
      JOIN invitations i ON i.workspace_id = m.workspace_id AND i.id = m.invitation_id
     WHERE m.workspace_id = ${workspaceId}::uuid AND m.token_hash = ${tokenHash}
       FOR UPDATE OF i`;
  const id = found[0]?.id;
  return id === undefined ? null : findInvitation(tx, workspaceId, id);
}

/**
 * Accepting: makes the invitee a member holding exactly the invitation's roles and marks the invitation accepted,
 * inside the caller's permission transaction. The user is found by address or created with `name`. Returns the member
 * id, or `already_member` when the user has a membership in the workspace already (removed ones included).
 */
export async function admitInvitee(
  tx: Db,
  invitation: InvitationRecord,
  name: string,
  now: Date,
): Promise<{ outcome: 'admitted'; memberId: string; userCreated: boolean } | { outcome: 'already_member' }> {
  const { workspaceId } = invitation;
  assertChangingAuthorization(workspaceId);
  const existing = await tx.prisma.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
  const user = existing ?? (await tx.prisma.user.create({ data: { email: invitation.email, name }, select: { id: true } }));
  if (existing && (await tx.prisma.workspaceMember.count({ where: { workspaceId, userId: existing.id } })) > 0) return { outcome: 'already_member' };
  const memberId = (await tx.prisma.workspaceMember.create({ data: { workspaceId, userId: user.id, joinedAt: now }, select: { id: true } })).id;
  await tx.prisma.memberRole.createMany({ data: invitation.roleIds.map((roleId) => ({ workspaceId, memberId, roleId })) });
  await tx.prisma.invitation.update({
    where: { workspaceId_id: { workspaceId, id: invitation.id } },
    data: { status: 'accepted', acceptedAt: now, acceptedMemberId: memberId, revision: { increment: 1 } },
  });
  return { outcome: 'admitted', memberId, userCreated: existing === null };
}
