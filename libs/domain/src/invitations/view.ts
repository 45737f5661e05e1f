import { effectiveStatus, type InvitationRecord, type InvitationStatusValue } from '@workcell/db';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';
import { DomainError } from '../kernel/errors.js';
import { idOf, notFoundOf } from '../kernel/lookup.js';

/**
 * Invitations (docs/invitations.md). An invitation offers roles to an e-mail address for INVITATION_LIFETIME_MS;
 * its status is pending until accepted or revoked, and reads as `expired` from `expiresAt` on (decided at read time,
 * so never a stale `pending`). The address is personal data: shown only with members:pii:read (contract 5.3), the
 * same overlay as a member's e-mail address, and never carried by an outbox event.
 */

/** How long an invitation can be accepted: 7 days from its creation (a resend does not extend it). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600_000;
/** At most one resend per minute per invitation; a sooner one is 409 resend_too_soon with Retry-After. */
export const RESEND_INTERVAL_MS = 60_000;

/** An invitation as the registry's Invitation. */
export interface InvitationView extends BaseView {
  readonly email?: string;
  readonly roleIds: readonly string[];
  readonly status: InvitationStatusValue;
  readonly invitedBy: string;
  readonly lastSentAt: string;
  readonly expiresAt: string;
}

export function invitationView(row: InvitationRecord, now: Date, personalData: boolean): InvitationView {
  return withBaseFields(row, {
    ...(personalData ? { email: row.email } : {}),
    roleIds: row.roleIds,
    status: effectiveStatus(row, now),
    // Exactly one of them is set (the creating credential's principal).
    invitedBy: row.invitedByMemberId ?? row.invitedByServiceAccountId ?? '',
    lastSentAt: row.lastSentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  });
}

/** An invitation in an outbox event's payload: the view without the address. */
export type InvitationEventView = Omit<InvitationView, 'email' | 'roleIds'> & { readonly roleIds: string[] };

/** The invitation as outbox events carry it: never the address (events reach credentials without members:pii:read). */
export function invitationEventView(row: InvitationRecord, now: Date): InvitationEventView {
  const { email: _email, roleIds, ...view } = invitationView(row, now, false);
  return { ...view, roleIds: [...roleIds] };
}

export const invitationNotFound = notFoundOf('invitation');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const invitationIdOf = (raw: string): string => idOf(raw, invitationNotFound);

export function notPending(status: InvitationStatusValue): DomainError {
  return new DomainError('invitation_not_pending', `the invitation is ${status}, not pending`, [], { status });
}
