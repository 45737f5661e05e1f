import { z } from 'zod';
import { baseFields, casPatchOf, ResourceId, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('members');

export const MemberStatus = z.enum(['active', 'deactivated']);

export const Member = z
  .object({
    ...baseFields,
    userId: ResourceId,
    displayName: z.string().optional().describe("The user's name. Personal data; present only with members:pii:read."),
    status: MemberStatus,
    roleIds: z.array(ResourceId),
    groupIds: z.array(ResourceId),
    joinedAt: Timestamp,
    email: z.string().optional().describe('Personal data; present only with members:pii:read.'),
    phone: z.string().nullable().optional().describe('Personal data; present only with members:pii:read.'),
    version: Version,
  })
  .meta({ id: 'Member', description: 'A workspace membership.' });

export const MemberUpdate = casPatchOf(
  z.strictObject({
    roleIds: z.array(ResourceId).min(1).max(50),
    status: MemberStatus.describe('Deactivation narrows the access of the member and their personal tokens immediately.'),
  }),
  'MemberUpdate',
  'Compare-and-set of role assignment and membership status.',
);

const pii = ['members:pii:read'] as const;

export const memberOperations = [
  f.list('listMembers', '/v1/members', {
    scopes: ['members:read'],
    overlayScopes: pii,
    query: { status: MemberStatus.optional(), roleId: ResourceId.optional() },
    item: Member,
  }),
  f.get('getMember', '/v1/members/{id}', { scopes: ['members:read'], overlayScopes: pii, data: Member }),
  f.update('updateMember', '/v1/members/{id}', {
    summary: 'Compare-and-set role assignment and status of a member',
    scopes: ['members:write'],
    overlayScopes: pii,
    concurrency: 'cas',
    body: MemberUpdate,
    data: Member,
  }),
  f.remove('removeMember', '/v1/members/{id}', {
    summary: 'Remove a member from the workspace',
    scopes: ['members:write'],
  }),
] satisfies readonly OperationDefinition[];
