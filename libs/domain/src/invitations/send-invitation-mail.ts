import { createHash, randomBytes } from 'node:crypto';
import { effectiveStatus, insertInvitationMessage, inTransaction, invitationMessageSent, lockInvitationForMail } from '@workcell/db';
import type { Mailer } from '@workcell/mail';
import type { ProcedureContext } from '../kernel/procedure.js';

/** The events whose invitation gets an e-mail (the relay hands each to the worker's mail job). */
export const INVITATION_MAIL_EVENTS: ReadonlySet<string> = new Set(['invitation.created', 'invitation.resent']);

/** SHA-256 of an acceptance token: what is stored (the token itself only ever exists in the e-mail). */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A new acceptance token: the workspace id (so the lookup stays in one tenant) and 256 random bits. */
function newToken(workspaceId: string): string {
  return `${workspaceId}.${randomBytes(32).toString('base64url')}`;
}

export type InvitationMailOutcome = 'sent' | 'already_sent' | 'not_found' | 'not_pending';

/**
 * The worker's job for one `invitation.created` / `invitation.resent` event: the invitation's e-mail with a new
 * single-use acceptance link. Runs in one transaction holding the invitation's row lock: an invitation revoked,
 * accepted or expired since gets no e-mail, and a message already recorded for this event is not sent again (the job
 * may run twice: a relay run rolled back after enqueueing it, a retry). The message row (the token's hash) is written
 * before the send and commits only after it, so a failed send leaves nothing behind and is retried; a crash between
 * the send and the commit sends it again on the retry (at least once; the outbox driver overwrites the same file).
 */
export async function sendInvitationMail(ctx: ProcedureContext, mailer: Mailer, input: { workspaceId: string; invitationId: string; eventId: string }): Promise<InvitationMailOutcome> {
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const found = await lockInvitationForMail(tx, input.workspaceId, input.invitationId);
    if (!found) return 'not_found';
    const { invitation, workspaceName, inviterName } = found;
    if (effectiveStatus(invitation, now) !== 'pending') return 'not_pending';
    if (await invitationMessageSent(tx, input.workspaceId, input.eventId)) return 'already_sent';
    const token = newToken(input.workspaceId);
    await insertInvitationMessage(tx, input.workspaceId, { id: input.eventId, invitationId: invitation.id, tokenHash: tokenHash(token), sentAt: now });
    const link = `${ctx.config.mail.invitationAcceptUrl}?token=${encodeURIComponent(token)}`;
    const lines = [
      `${inviterName ?? 'Someone'} invited you to join the workspace "${workspaceName}" on Workcell.`,
      ...(invitation.message ? ['', invitation.message] : []),
      '',
      'To accept, open this link:',
      link,
      '',
      `The invitation expires at ${invitation.expiresAt.toISOString()}. If you did not expect it, ignore this e-mail.`,
    ];
    await mailer.send({ id: `invitation-${input.eventId}`, to: invitation.email, subject: `You are invited to ${workspaceName} on Workcell`, text: `${lines.join('\n')}\n` });
    return 'sent';
  });
}
