import { z } from 'zod';
import { effectiveStatus, markInvitationRevoked } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';

import { invitationEventView, invitationIdOf, invitationNotFound, notPending } from './view.js';

export const revokeInvitationInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/invitations/{id}`: a pending invitation becomes `revoked` (kept, never deleted): its links stop working
 * and an e-mail still queued for it is not sent. Revoking a revoked invitation again is 204 with nothing changed (the
 * end state is the one asked for); an accepted or expired one is 409 `invitation_not_pending` (revoking cannot undo
 * an acceptance, remove the member instead). Writes `invitation.revoked`.
 */
export const revokeInvitation = defineProcedure('revokeInvitation', revokeInvitationInput, async (op, input): Promise<{ revoked: true }> => {
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  const id = invitationIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    const change = await markInvitationRevoked(tx, workspaceId, id, now);
    if (!change.row) throw invitationNotFound();
    if (change.outcome === 'not_pending') {
      const status = effectiveStatus(change.row, now);
      if (status === 'revoked') return { revoked: true as const };
      throw notPending(status);
    }
    await op.emit(tx, {
      aggregateType: 'invitation',
      aggregateId: id,
      eventType: 'invitation.revoked',
      payload: { invitation: invitationEventView(change.row, now), requestId },
      occurredAt: now,
    });
    return { revoked: true as const };
  });
});
