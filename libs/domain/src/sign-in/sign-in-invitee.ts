import { startInviteeSession } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import type { AcceptedInvitation } from '../invitations/accept-invitation.js';
import type { StartedSession } from './complete-sign-in.js';
import { newSession } from './secrets.js';

/**
 * After `POST /invitations/accept` from the acceptance page: the new member's person is signed in, with the same
 * session as an e-mail link starts (audited `session.started`, method `invitation`), when the accepted membership is
 * their only active one (libs/db startInviteeSession says why). Null otherwise: they sign in by e-mail link.
 */
export async function signInInvitee(ctx: ProcedureContext, accepted: Pick<AcceptedInvitation, 'workspaceId' | 'memberId'>, requestId: string | null): Promise<StartedSession | null> {
  const { secret, stored } = newSession(ctx.now(), requestId);
  const result = await startInviteeSession(ctx.database, { ...stored, workspaceId: accepted.workspaceId, memberId: accepted.memberId });
  return result.outcome === 'signed_in' ? { secret, sessionId: result.sessionId, userId: result.userId } : null;
}
