import { z } from 'zod';
import { createSignInLink, findUserIdByEmail } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { SIGN_IN_LINK_LIFETIME_MS } from './secrets.js';

export const RequestSignIn = z.strictObject({ email: z.string().trim().toLowerCase().pipe(z.email().max(320)) });

/**
 * `POST /sign-in`: a sign-in link for the address. The answer is the same whether or not the address is known (no
 * enumeration): only a known user's link is stored, its e-mail due now. The worker mails it (sendNextSignInMail),
 * so the sending never shows in the answer's timing, and a committed link is mailed even if the send fails for a
 * while. Nothing is returned: the caller answers the same either way.
 */
export async function requestSignIn(ctx: ProcedureContext, input: unknown): Promise<void> {
  const parsed = RequestSignIn.safeParse(input);
  if (!parsed.success) throw new DomainError('validation_failed', 'an e-mail address is needed', [{ pointer: '/email', message: 'must be an e-mail address' }]);
  const userId = await findUserIdByEmail(ctx.database, parsed.data.email);
  if (userId === null) return;
  const now = ctx.now();
  await createSignInLink(ctx.database, { userId, now, expiresAt: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS) });
}
