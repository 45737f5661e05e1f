import { type DueSignInMail, inTransaction, lockDueSignInMail, postponeSignInMail, recordSignInLinkMailed } from '@workcell/db';
import type { Mailer } from '@workcell/mail';
import type { ProcedureContext } from '../kernel/procedure.js';
import { randomSecret, secretHash } from './secrets.js';

/** The delay before the next attempt after `attempts` failed ones: 1 s, doubling, at most a minute (the link lives 15). */
export const signInMailRetryMs = (attempts: number): number => Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));

/**
 * The worker's sending of one due sign-in e-mail (docs/authentication.md "Signing in"; the database is the queue).
 * In one transaction holding the link's row lock (lockDueSignInMail, SKIP LOCKED: concurrent workers take different
 * links) it draws the link's token, records its SHA-256 and sends the e-mail; the transaction commits only after the
 * send, so a failed send leaves no token behind: the link is due again after signInMailRetryMs, until it expires.
 * A crash between the send and the commit sends it again with a new token (at least once; same message id).
 * Returns whether a link was mailed; a failed send is rethrown once its retry is recorded.
 */
export async function sendNextSignInMail(ctx: ProcedureContext, mailer: Mailer): Promise<'sent' | 'none'> {
  const now = ctx.now();
  const claimed: { link: DueSignInMail | null } = { link: null };
  try {
    return await inTransaction(ctx.database, async (tx) => {
      const due = await lockDueSignInMail(tx, now);
      if (!due) return 'none';
      claimed.link = due;
      const token = randomSecret();
      await recordSignInLinkMailed(tx, due.id, secretHash(token));
      const link = `${ctx.config.mail.signInUrl}?token=${encodeURIComponent(token)}`;
      await mailer.send({
        id: `sign-in-${due.id}`,
        to: due.email,
        subject: 'Your Workcell sign-in link',
        text: `Open this link to sign in to Workcell:\n\n${link}\n\nIt works once, until ${due.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC (15 minutes after it was asked for). If you did not ask for it, ignore this e-mail.\n`,
      });
      return 'sent';
    });
  } catch (error) {
    const { link } = claimed;
    if (link) await postponeSignInMail(ctx.database, link.id, new Date(ctx.now().getTime() + signInMailRetryMs(link.attempts + 1)));
    throw error;
  }
}
