import { z } from 'zod';
import { baseFields, Email, ResourceId, ShortText, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('invitations');

export const Invitation = z
  .object({
    ...baseFields,
    email: z.string().optional().describe('Personal data; present only with members:pii:read.'),
    roleIds: z.array(ResourceId),
    status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
    invitedBy: ResourceId,
    lastSentAt: Timestamp,
    expiresAt: Timestamp,
  })
  .meta({ id: 'Invitation', description: 'A workspace invitation.' });

export const InvitationCreate = z
  .strictObject({ email: Email, roleIds: z.array(ResourceId).min(1).max(50), message: ShortText.optional() })
  .meta({ id: 'InvitationCreate', description: 'A new invitation.' });

const pii = ['members:pii:read'] as const;

export const invitationOperations = [
  f.list('listInvitations', '/v1/invitations', {
    scopes: ['invitations:read'],
    overlayScopes: pii,
    query: { status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional() },
    item: Invitation,
  }),
  f.get('getInvitation', '/v1/invitations/{id}', { scopes: ['invitations:read'], overlayScopes: pii, data: Invitation }),
  f.create('createInvitation', '/v1/invitations', {
    scopes: ['invitations:write'],
    overlayScopes: pii,
    body: InvitationCreate,
    data: Invitation,
  }),
  f.action('POST', 'resendInvitation', '/v1/invitations/{id}/resend', {
    scopes: ['invitations:write'],
    overlayScopes: pii,
    data: Invitation,
  }),
  f.remove('revokeInvitation', '/v1/invitations/{id}', { scopes: ['invitations:write'] }),
] satisfies readonly OperationDefinition[];
