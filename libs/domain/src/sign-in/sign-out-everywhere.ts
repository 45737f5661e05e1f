import { endAllSessions } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';

/** "Sign out everywhere": ends every session of the person, this one included (audited `session.ended_all`). */
export async function signOutEverywhere(ctx: ProcedureContext, session: { userId: string; id: string }, requestId: string | null): Promise<number> {
  return endAllSessions(ctx.database, { userId: session.userId, sessionId: session.id, now: ctx.now(), requestId });
}
