import { z } from 'zod';
import { baseFields, casPatchOf, ExpectedVersion, LongText, Name, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('roles');

/**
 * A workspace permission key: a v1 scope name (`members:read`, contract 5.3) or a settings key
 * (`settings.api.personalCredentials`). Which keys exist is checked by the domain (PERMISSION_KEYS).
 */
const Permission = z
  .string()
  .max(100)
  .regex(/^(?:[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)+|[a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+)$/)
  .describe('A permission key: a v1 scope name such as members:read, or settings.api.personalCredentials.');

export const Role = z
  .object({
    ...baseFields,
    name: z.string(),
    description: z.string().nullable(),
    builtIn: z.boolean(),
    permissions: z.array(z.string()),
    version: Version,
  })
  .meta({ id: 'Role', description: 'A role and its permission configuration.' });

const roleFields = z.strictObject({ name: Name, description: LongText.nullable().optional() });
export const RoleCreate = roleFields.extend({ permissions: z.array(Permission).max(500) }).meta({ id: 'RoleCreate', description: 'A new custom role.' });
export const RoleUpdate = casPatchOf(roleFields, 'RoleUpdate', 'Compare-and-set of role name and description.');
export const RolePermissionsReplace = z
  .strictObject({ expectedVersion: ExpectedVersion, permissions: z.array(Permission).max(500) })
  .meta({ id: 'RolePermissionsReplace', description: 'Atomic replacement of the permissions of a role.' });

export const roleOperations = [
  f.list('listRoles', '/v1/roles', { scopes: ['roles:read'], item: Role }),
  f.create('createRole', '/v1/roles', { scopes: ['roles:write'], body: RoleCreate, data: Role }),
  f.get('getRole', '/v1/roles/{id}', { scopes: ['roles:read'], data: Role }),
  f.update('updateRole', '/v1/roles/{id}', { scopes: ['roles:write'], concurrency: 'cas', body: RoleUpdate, data: Role }),
  f.remove('deleteRole', '/v1/roles/{id}', {
    description: 'Built-in roles and roles still assigned to members cannot be deleted (409).',
    scopes: ['roles:write'],
  }),
  f.replace('replaceRolePermissions', '/v1/roles/{id}/permissions', {
    summary: 'Atomically replace the permissions of a role',
    scopes: ['roles:write'],
    concurrency: 'cas',
    body: RolePermissionsReplace,
    data: Role,
  }),
] satisfies readonly OperationDefinition[];
