import type { GrantResourceType } from '@workcell/db';
import type { GrantResourceTypeName } from '@workcell/registry';
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
 * - A refusal names the grant that would allow it, as the grants API takes it, so the caller knows what to ask for.
 */

/**
 * The registry's grant resource types (wire names) and the stored types they name. `users` is a registry domain but
 * not a grantable resource (members are governed by roles, not service-account grants): a grant naming it is refused
 * with 400. `planned_work` has no wire name: planned work follows the grant of its task.
 */
export const GRANT_DOMAINS = {
  projects: 'project',
  tasks: 'task',
  'time-entries': 'time_entry',
  contacts: 'contact',
  'call-notes': 'call_note',
  'contact-groups': 'contact_group',
  lists: 'list',
  services: 'service',
  tags: 'tag',
  'project-templates': 'project_template',
  products: 'product',
  'product-groups': 'product_group',
  'project-statements': 'project_statement',
  documents: 'document',
  files: 'file',
  comments: 'comment',
  users: null,
  appointments: 'appointment',
  absences: 'absence',
} as const satisfies Record<GrantResourceTypeName, GrantResourceType | null>;

export type GrantDomain = keyof typeof GRANT_DOMAINS;

/** The wire name of a stored grant type (none for `planned_work`). */
export const WIRE_NAME_OF: ReadonlyMap<GrantResourceType, GrantDomain> = new Map(
  Object.entries(GRANT_DOMAINS).flatMap(([domain, type]) => (type === null ? [] : [[type, domain as GrantDomain] as const])),
);

/** The grant that would allow it, as `PUT /v1/service-accounts/{id}/resource-grants` takes it. */
const grantToAsk = (type: GrantResourceType, resourceId: string | null, access: GrantAccessLevel): string => JSON.stringify({ resourceType: WIRE_NAME_OF.get(type) ?? type, resourceId, access });
const HOW_TO_GRANT = 'PUT /v1/service-accounts/{id}/resource-grants';

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
  if (access === 'write' && held !== 'write') {
    throw new DomainError(
      'insufficient_grant',
      `this service account's resource grants allow reading this ${what} but not changing it: grant ${grantToAsk(type, id.toLowerCase(), 'write')} (or with resourceId null) through ${HOW_TO_GRANT}`,
    );
  }
}

/**
 * Throws 403 `insufficient_grant` unless the caller holds a type-wide grant with `access` on every one of `types`
 * (creates need 'write'), naming each one missing.
 */
export function requireTypeGrant(auth: V1AuthContext, types: GrantResourceType | readonly GrantResourceType[], access: GrantAccessLevel, what: string): void {
  const grants = bounded(auth);
  if (grants === null) return;
  const missing = [types].flat().filter((type) => !grants.some((g) => g.resourceType === type && g.resourceId === null && covers(g, access)));
  if (missing.length > 0) {
    throw new DomainError(
      'insufficient_grant',
      `this service account's resource grants do not allow ${access === 'write' ? 'creating' : 'reading every'} ${what}: grant ${missing.map((type) => grantToAsk(type, null, access)).join(' and ')} through ${HOW_TO_GRANT}`,
    );
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
