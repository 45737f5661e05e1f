import { signInWithLink } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { newSession, secretHash } from './secrets.js';

/** A new session: its id (the cookie's value, shown nowhere else and stored only as a hash) and whose it is. */
export interface StartedSession {
  readonly secret: string;
  readonly sessionId: string;
  readonly userId: string;
}

/**
 * `POST /sign-in/complete`: uses the link's token once and starts a session (libs/db signInWithLink: one
 * compare-and-set, audited). A token that names nothing is 404 `not_found`; a used or expired one 409 `conflict`,
 * the detail saying which.
 */
export async function completeSignIn(ctx: ProcedureContext, token: unknown, requestId: string | null): Promise<StartedSession> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) throw new DomainError('not_found', 'this sign-in link is not valid: request a new one');
  const { secret, stored } = newSession(ctx.now(), requestId);
  const result = await signInWithLink(ctx.database, { ...stored, tokenHash: secretHash(token) });
  if (result.outcome === 'signed_in') return { secret, sessionId: result.sessionId, userId: result.userId };
  if (result.outcome === 'unknown') throw new DomainError('not_found', 'this sign-in link is not valid: request a new one');
  throw new DomainError('conflict', result.outcome === 'used' ? 'this sign-in link has been used already: request a new one' : 'this sign-in link has expired: request a new one', [], {
    status: result.outcome,
  });
}
