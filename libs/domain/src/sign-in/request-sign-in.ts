import { z } from 'zod';
import { createSignInLink, findUserIdByEmail } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { randomSecret, secretHash, SIGN_IN_LINK_LIFETIME_MS } from './secrets.js';

export const RequestSignIn = z.strictObject({ email: z.string().trim().toLowerCase().pipe(z.email().max(320)) });

/** The e-mail to send, when the address is a user's: the link's token goes into it and nowhere else. */
export interface SignInMail {
  readonly linkId: string;
  readonly to: string;
  readonly token: string;
}

/**
 * `POST /sign-in`: a sign-in link for the address. The answer is the same whether or not the address is known (no
 * enumeration): a token is drawn and hashed either way, and only a known user's link is stored and mailed. Returns
 * the mail to send, or null. The caller sends it after answering, so the answer's timing does not tell either.
 */
export async function requestSignIn(ctx: ProcedureContext, input: unknown): Promise<SignInMail | null> {
  const parsed = RequestSignIn.safeParse(input);
  if (!parsed.success) throw new DomainError('validation_failed', 'an e-mail address is needed', [{ pointer: '/email', message: 'must be an e-mail address' }]);
  const { email } = parsed.data;
  const token = randomSecret();
  const tokenHash = secretHash(token);
  const userId = await findUserIdByEmail(ctx.database, email);
  if (userId === null) return null;
  const now = ctx.now();
  const linkId = await createSignInLink(ctx.database, { userId, tokenHash, now, expiresAt: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS) });
  return { linkId, to: email, token };
}
