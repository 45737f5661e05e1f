import { z } from 'zod';
import { baseFields, casPatchOf, ExpectedVersion, LongText, Name, ResourceId, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('groups');

export const Group = z
  .object({ ...baseFields, name: z.string(), description: z.string().nullable(), memberCount: z.number().int(), version: Version })
  .meta({ id: 'Group', description: 'A workspace group; `version` also guards its membership.' });

const groupFields = z.strictObject({ name: Name, description: LongText.nullable().optional() });
export const GroupCreate = groupFields.meta({ id: 'GroupCreate', description: 'A new group.' });
export const GroupUpdate = casPatchOf(groupFields, 'GroupUpdate', 'Compare-and-set of group attributes.');

export const GroupMember = z.object({ memberId: ResourceId, addedAt: Timestamp }).meta({ id: 'GroupMember', description: 'A member of a group.' });
export const GroupMembersReplace = z
  .strictObject({ expectedVersion: ExpectedVersion, memberIds: z.array(ResourceId).max(5000) })
  .meta({ id: 'GroupMembersReplace', description: 'Atomic replacement of the group membership.' });

export const groupOperations = [
  f.list('listGroups', '/v1/groups', { scopes: ['groups:read'], item: Group }),
  f.create('createGroup', '/v1/groups', { scopes: ['groups:write'], body: GroupCreate, data: Group }),
  f.get('getGroup', '/v1/groups/{id}', { scopes: ['groups:read'], data: Group }),
  f.update('updateGroup', '/v1/groups/{id}', { scopes: ['groups:write'], concurrency: 'cas', body: GroupUpdate, data: Group }),
  f.remove('deleteGroup', '/v1/groups/{id}', { scopes: ['groups:write'] }),
  f.list('listGroupMembers', '/v1/groups/{id}/members', { scopes: ['groups:read'], item: GroupMember }),
  f.replace('replaceGroupMembers', '/v1/groups/{id}/members', {
    summary: 'Atomically replace the members of a group',
    scopes: ['groups:write'],
    concurrency: 'cas',
    body: GroupMembersReplace,
    data: Group,
  }),
] satisfies readonly OperationDefinition[];
