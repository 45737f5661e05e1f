import { z } from 'zod';
import { admitInvitee, effectiveStatus, inPermissionTransaction, invitationTokenKnown, lockInvitationByToken, recordAudit } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { validationError } from '../roles/permission-model.js';
import { tokenHash } from './send-invitation-mail.js';
import { invitationEventView, notPending } from './view.js';
import { platformEvents } from '../kernel/procedure.js';

/** The body of `POST /invitations/accept` (auth service): the token from the e-mail's link and, for a new user, a name. */
export const AcceptInvitation = z
  .strictObject({
    token: z.string().max(200),
    displayName: z.string().trim().min(1).max(200).optional(),
  })
  .meta({ id: 'AcceptInvitation' });

export interface AcceptedInvitation {
  readonly workspaceId: string;
  readonly invitationId: string;
  readonly memberId: string;
  readonly roleIds: readonly string[];
}

const unknownToken = (): DomainError => new DomainError('not_found', 'no invitation has this token (check the link in the e-mail)');

/**
 * Accepts an invitation with the token of one of its e-mails: in one permission transaction (the invitation's row
 * locked) the invitee's user is found by address or created (named `displayName`, else the address's local part), it
 * becomes an active member holding the invitation's roles, the invitation becomes `accepted`, `invitation.accepted`
 * is written and the join audited (`member.joined`). A token that names nothing
 * is 404 `not_found`; one whose invitation is accepted (a used link), revoked or expired is 409
 * `invitation_not_pending`; an address that became a member meanwhile is 409 `already_member`.
 */
export async function acceptInvitation(ctx: ProcedureContext, input: unknown, requestId: string | null = null): Promise<AcceptedInvitation> {
  const parsed = AcceptInvitation.safeParse(input);
  if (!parsed.success) {
    throw validationError(
      'the request is not valid',
      parsed.error.issues.map((issue) => ({ pointer: issue.path.length === 0 ? '' : `/${issue.path.join('/')}`, message: issue.message })),
    );
  }
  const { token, displayName } = parsed.data;
  const workspaceId = token.slice(0, token.indexOf('.'));
  if (!isUuid(workspaceId)) throw unknownToken();
  const now = ctx.now();
  const tenant = workspaceId.toLowerCase();
  const hash = tokenHash(token);
  // Anyone may call this: a token that names nothing is refused by a plain read, before the permission lock and the
  // authorization change (which every API instance notices) of a real acceptance.
  if (!(await invitationTokenKnown(ctx.database, tenant, hash))) throw unknownToken();
  return inPermissionTransaction(ctx.database, tenant, async (tx) => {
    const invitation = await lockInvitationByToken(tx, tenant, hash);
    if (!invitation) throw unknownToken();
    const status = effectiveStatus(invitation, now);
    if (status !== 'pending') throw notPending(status);
    const admitted = await admitInvitee(tx, invitation, displayName ?? invitation.email.slice(0, invitation.email.indexOf('@')), now);
    if (admitted.outcome === 'already_member') throw new DomainError('already_member', 'this address already belongs to a member of the workspace');
    const accepted = { ...invitation, status: 'accepted' as const, acceptedAt: now, acceptedMemberId: admitted.memberId };
    // Accepting from the invitation page is no API operation: its events name no actor (the invitee is no member yet).
    await platformEvents(invitation.workspaceId).emit(tx, {
      aggregateType: 'invitation',
      aggregateId: invitation.id,
      eventType: 'invitation.accepted',
      payload: { invitation: invitationEventView(accepted, now), memberId: admitted.memberId, requestId },
      occurredAt: now,
    });
    // Audited like every membership change (libs/domain/PERMISSIONS.md); the actor is the new member, by the invitation's token.
    await recordAudit(tx, {
      workspaceId: invitation.workspaceId,
      actor: { credentialId: null, principalType: 'member', principalId: admitted.memberId, requestId },
      action: 'member.joined',
      targetType: 'member',
      targetId: admitted.memberId,
      metadata: { invitationId: invitation.id, rolesAdded: [...invitation.roleIds], userCreated: admitted.userCreated },
      occurredAt: now,
    });
    return { workspaceId: invitation.workspaceId, invitationId: invitation.id, memberId: admitted.memberId, roleIds: invitation.roleIds };
  });
}
