import { endSession } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';

/** "Sign out": ends this session (audited `session.ended`). */
export async function signOut(ctx: ProcedureContext, session: { userId: string; id: string }, requestId: string | null): Promise<void> {
  await endSession(ctx.database, { userId: session.userId, sessionId: session.id, now: ctx.now(), requestId });
}
