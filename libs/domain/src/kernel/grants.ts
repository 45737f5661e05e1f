import type { GrantResourceType } from '@workcell/db';
import type { AuthGrant, GrantAccessLevel, V1AuthContext } from './auth-context.js';
import { DomainError } from './errors.js';

/**
 * Resource grants (contract 5.2: service-account credentials are "restricted by scopes and resource grants").
 * The decisions, also in docs/authentication.md "Resource grants":
 * - Only service-account principals are bounded by grants; members (personal tokens) and v0 team tokens are
 *   bounded by scopes and permissions alone. The grants travel in the auth context, read from the database on
 *   every authentication (nothing cached), so a replacement applies to the very next request on every instance.
 * - A grant names a resource type and either one resource (`resourceId`) or every resource of the type
 *   (`resourceId: null`); `write` includes `read`. No grant for a type means no access to that type.
 * - A resource the caller may not read answers 404 exactly like a missing one (its existence is not revealed);
 *   a readable resource the caller may not write answers 403 `insufficient_grant`. Creating needs a
 *   type-wide `write` grant (a per-resource grant cannot name a resource that does not exist yet).
 * - Lists show only granted resources: `grantedIds` is null for "all" or the explicit ids to filter on.
 */

const bounded = (auth: V1AuthContext): readonly AuthGrant[] | null => (auth.principal.type === 'service_account' ? (auth.grants ?? []) : null);

const covers = (grant: AuthGrant, access: GrantAccessLevel): boolean => access === 'read' || grant.access === 'write';

/** What the caller may do with one resource of the type: 'write', 'read' or nothing (null). */
function accessTo(grants: readonly AuthGrant[], type: GrantResourceType, id: string): GrantAccessLevel | null {
  let best: GrantAccessLevel | null = null;
  for (const grant of grants) {
    if (grant.resourceType !== type || (grant.resourceId !== null && grant.resourceId !== id)) continue;
    if (grant.access === 'write') return 'write';
    best = 'read';
  }
  return best;
}

/**
 * Throws unless the caller may `access` resource `id` of `type`: 404 `not_found` ("<what> not found") when it
 * may not even read it, 403 `insufficient_grant` when it may read but not write. No-op for unbounded callers.
 */
export function requireGrant(auth: V1AuthContext, type: GrantResourceType, id: string, access: GrantAccessLevel, what: string): void {
  const grants = bounded(auth);
  if (grants === null) return;
  const held = accessTo(grants, type, id.toLowerCase());
  if (held === null) throw new DomainError('not_found', `${what} not found`);
  if (access === 'write' && held !== 'write') throw new DomainError('insufficient_grant', `this service account's resource grants allow reading this ${what} but not changing it`);
}

/** Throws 403 `insufficient_grant` unless the caller holds a type-wide grant with `access` (creates need 'write'). */
export function requireTypeGrant(auth: V1AuthContext, type: GrantResourceType, access: GrantAccessLevel, what: string): void {
  const grants = bounded(auth);
  if (grants === null) return;
  if (!grants.some((g) => g.resourceType === type && g.resourceId === null && covers(g, access))) {
    throw new DomainError('insufficient_grant', `this service account's resource grants do not allow ${access === 'write' ? 'creating' : 'reading every'} ${what}; a grant on every ${what} (resourceId null) with ${access} access is needed`);
  }
}

/** The ids of `type` a list may show: null for every resource, otherwise exactly these (possibly none). */
export function grantedIds(auth: V1AuthContext, type: GrantResourceType): readonly string[] | null {
  const grants = bounded(auth);
  if (grants === null) return null;
  const ofType = grants.filter((g) => g.resourceType === type);
  if (ofType.some((g) => g.resourceId === null)) return null;
  return ofType.map((g) => g.resourceId as string);
}
