import { z } from 'zod';
import { baseFields } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('users');

export const User = z
  .object({ ...baseFields, name: z.string(), status: z.enum(['active', 'inactive']) })
  .meta({ id: 'User', description: 'A workspace user (personal data beyond the display name is a members:pii:read concern).' });

export const userOperations = [
  f.list('listUsers', '/v1/users', {
    scopes: ['users:read'],
    query: { status: z.enum(['active', 'inactive']).optional() },
    item: User,
  }),
  f.get('getUser', '/v1/users/{id}', { scopes: ['users:read'], data: User }),
] satisfies readonly OperationDefinition[];
