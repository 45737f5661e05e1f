import { z } from 'zod';
import { effectiveStatus, markInvitationResent } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { invitationEventView, invitationIdOf, invitationNotFound, invitationView, type InvitationView, notPending, RESEND_INTERVAL_MS } from './view.js';
import { seesPersonalData } from '../roles/permission-model.js';

export const resendInvitationInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `POST /v1/invitations/{id}/resend`: sends the invitation's e-mail again (with a new acceptance link; earlier links
 * keep working until the invitation ends) and moves `lastSentAt` to now. The expiry is not extended. Only a pending
 * invitation (409 `invitation_not_pending` otherwise), at most once per RESEND_INTERVAL_MS: sooner is 409
 * `resend_too_soon` with `Retry-After` (the seconds until it is allowed). Decided in one UPDATE, so two resends at
 * once send one e-mail. Writes `invitation.resent` (completing a held idempotency key), from which the worker sends
 * the e-mail.
 */
export const resendInvitation = defineProcedure('resendInvitation', resendInvitationInput, async (op, input): Promise<InvitationView> => {
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  const id = invitationIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    const change = await markInvitationResent(tx, workspaceId, id, now, new Date(now.getTime() - RESEND_INTERVAL_MS));
    if (change.outcome === 'not_found' || !change.row) throw invitationNotFound();
    const row = change.row;
    if (change.outcome === 'not_pending') throw notPending(effectiveStatus(row, now));
    if (change.outcome === 'too_soon') {
      const retryAfterSeconds = Math.max(1, Math.ceil((row.lastSentAt.getTime() + RESEND_INTERVAL_MS - now.getTime()) / 1000));
      throw new DomainError('resend_too_soon', `the invitation was sent less than ${RESEND_INTERVAL_MS / 1000} seconds ago; retry after ${retryAfterSeconds} s`, [], { retryAfterSeconds });
    }
    const result = invitationView(row, now, seesPersonalData(auth));
    await op.emit(tx, {
      aggregateType: 'invitation',
      aggregateId: id,
      eventType: 'invitation.resent',
      payload: { invitation: invitationEventView(row, now), requestId },
      occurredAt: now,
      result,
    });
    return result;
  });
});
