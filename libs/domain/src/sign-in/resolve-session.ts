import { type SessionRecord, touchSession } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import { secretHash, SESSION_IDLE_MS } from './secrets.js';

/**
 * The live session a cookie names, its last use moved to now; null for anything else (unknown, revoked, idle for
 * SESSION_IDLE_MS, past its absolute expiry). Every request of the account pages starts here.
 */
export async function resolveSession(ctx: ProcedureContext, secret: string | undefined): Promise<SessionRecord | null> {
  if (secret === undefined || secret.length === 0 || secret.length > 200) return null;
  const now = ctx.now();
  return touchSession(ctx.database, secretHash(secret), now, new Date(now.getTime() - SESSION_IDLE_MS));
}
