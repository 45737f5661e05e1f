import { type Db, findRole, type RoleRecord } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { idOf, notFoundOf } from '../kernel/lookup.js';

/** What updating, deleting and replacing the permissions of a role share: only a custom role changes. */

export const roleNotFound = notFoundOf('role');

export function builtInRole(): DomainError {
  return new DomainError('built_in_role', 'built-in roles cannot be changed or deleted; create a custom role instead');
}

/** The role a path names: a non-UUID names none (404). */
export const roleIdOf = (rawId: string): string => idOf(rawId, roleNotFound);

/** The role to change, read in the change's transaction: 404 when missing, 409 `built_in_role` for a built-in one. */
export async function findCustomRole(tx: Db, workspaceId: string, id: string): Promise<RoleRecord> {
  const role = await findRole(tx, workspaceId, id);
  if (!role) throw roleNotFound();
  if (role.isSystem) throw builtInRole();
  return role;
}
