import { z } from 'zod';
import { baseFields, Email, ResourceId, ShortText, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('invitations');

export const Invitation = z
  .object({
    ...baseFields,
    email: z.string().optional().describe('Personal data; present only with members:pii:read. Stored lower-case.'),
    roleIds: z.array(ResourceId).describe('The roles the invitee holds once the invitation is accepted.'),
    status: z
      .enum(['pending', 'accepted', 'revoked', 'expired'])
      .describe('`pending` until accepted or revoked; a pending invitation reads as `expired` from `expiresAt` on (decided at the request, never stale).'),
    invitedBy: ResourceId.describe('The member or service account whose credential created it.'),
    lastSentAt: Timestamp.describe('When its e-mail was last asked for (creation, then each resend).'),
    expiresAt: Timestamp.describe('Seven days after creation; a resend does not extend it.'),
  })
  .meta({
    id: 'Invitation',
    description:
      'A workspace invitation: an e-mail address offered roles for seven days. The worker e-mails the invitee a single-use acceptance link (the auth service’s `/invitations/accept`, outside this API: the invitee has no credential yet); accepting makes the invitee an active member holding `roleIds`.',
  });

export const InvitationCreate = z
  .strictObject({ email: Email, roleIds: z.array(ResourceId).min(1).max(50), message: ShortText.optional() })
  .meta({ id: 'InvitationCreate', description: 'A new invitation.' });

const pii = ['members:pii:read'] as const;

export const invitationOperations = [
  f.list('listInvitations', '/v1/invitations', {
    description: 'The workspace’s invitations, oldest first; `status` filters by the status at the request’s instant. Addresses only with members:pii:read.',
    scopes: ['invitations:read'],
    overlayScopes: pii,
    query: { status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional() },
    item: Invitation,
  }),
  f.get('getInvitation', '/v1/invitations/{id}', { description: 'One invitation; its address only with members:pii:read.', scopes: ['invitations:read'], overlayScopes: pii, data: Invitation }),
  f.create('createInvitation', '/v1/invitations', {
    description:
      'Invites an address for seven days and e-mails it (asynchronously, from the `invitation.created` event). Every role must be an unarchived role of the workspace (400 with a pointer per bad entry) whose permissions the caller holds (403 `insufficient_scope`). 409 `already_member`: the address belongs to a member (active or deactivated); 409 `invitation_pending`: it has a pending invitation (resend or revoke that one).',
    scopes: ['invitations:write'],
    overlayScopes: pii,
    body: InvitationCreate,
    data: Invitation,
  }),
  f.action('POST', 'resendInvitation', '/v1/invitations/{id}/resend', {
    description:
      'E-mails a pending invitation again with a new link (earlier links keep working) and moves `lastSentAt`; the expiry stays. At most once a minute: sooner is 409 `resend_too_soon` with `Retry-After` (seconds). Not pending: 409 `invitation_not_pending`.',
    scopes: ['invitations:write'],
    overlayScopes: pii,
    data: Invitation,
  }),
  f.remove('revokeInvitation', '/v1/invitations/{id}', {
    description:
      'Revokes a pending invitation (kept, status `revoked`): its links stop working. Revoking a revoked invitation again is 204 with nothing changed; an accepted or expired one is 409 `invitation_not_pending`.',
    scopes: ['invitations:write'],
  }),
] satisfies readonly OperationDefinition[];
