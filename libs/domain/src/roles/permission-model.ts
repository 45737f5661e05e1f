import { PERMISSION_KEYS, SETTINGS_PERMISSIONS } from '@workcell/credentials';
import { countMembersHoldingAll, memberPermissionKeys, type Db } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import { ADMINISTRATION_PERMISSIONS } from '../kernel/visibility.js';

/**
 * The permission model of members, roles and groups: what the member, role and group procedures share.
 * The decisions are written up in libs/domain/PERMISSIONS.md.
 *
 * - A role is a set of permission keys from PERMISSION_KEYS (the v1 scope names plus the two settings keys);
 *   a member holds the union of the keys of its roles; a personal access token acts with the intersection
 *   of its scopes and those keys, read on every request (nothing is cached), so a change applies to the
 *   very next request on every instance.
 * - Lock-out guard: a workspace always keeps at least one active member holding both `roles:write` and
 *   `members:write` (with those two every other permission can be given back). A change that would leave
 *   none is refused with 409 `last_administrator`.
 * - No escalation: a caller grants only what it holds. A scope-named key must be among the calling
 *   credential's effective scopes; a settings key must be held by the calling member (a service account
 *   holds none). Otherwise 403 `insufficient_scope`, pointing at the offending entry.
 */

export { ADMINISTRATION_PERMISSIONS } from '../kernel/visibility.js';

export const PII_SCOPE = 'members:pii:read';

/**
 * The one personal-data rule (a member's and an invitation's address, a member's name and phone): whether the caller
 * may read it. What a caller cannot read is neither returned nor matched (search, filters), so every view and every
 * query over those fields asks this.
 */
export const seesPersonalData = (auth: V1AuthContext): boolean => auth.effectiveScopes.includes(PII_SCOPE);

const KNOWN_KEYS: ReadonlySet<string> = new Set(PERMISSION_KEYS);
const SETTINGS_KEYS: ReadonlySet<string> = new Set(SETTINGS_PERMISSIONS);

export function validationError(message: string, issues: FieldIssue[]): DomainError {
  return new DomainError('validation_failed', message, issues);
}

/** Every key must be a known permission key, once. Throws 400 with a JSON pointer per offending entry. */
export function assertPermissionKeys(keys: readonly string[], pointer = '/permissions'): void {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  keys.forEach((key, i) => {
    if (!KNOWN_KEYS.has(key)) issues.push({ pointer: `${pointer}/${i}`, message: `unknown permission key ${JSON.stringify(key)}` });
    else if (seen.has(key)) issues.push({ pointer: `${pointer}/${i}`, message: `duplicate permission key ${JSON.stringify(key)}` });
    seen.add(key);
  });
  if (issues.length > 0) throw validationError('the permissions are not valid', issues);
}

/** Ids in a body list must be UUIDs (anything else names nothing) and appear once. Throws 400 with pointers. */
export function assertIdList(ids: readonly string[], pointer: string, what: string): void {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (!isUuid(id)) issues.push({ pointer: `${pointer}/${i}`, message: `no ${what} ${JSON.stringify(id)} in this workspace` });
    else if (seen.has(id.toLowerCase())) issues.push({ pointer: `${pointer}/${i}`, message: `duplicate ${what} ${JSON.stringify(id)}` });
    seen.add(id.toLowerCase());
  });
  if (issues.length > 0) throw validationError(`the ${what} list is not valid`, issues);
}

/** Ids of a body list that name nothing in the workspace: 400 with a pointer each (another workspace's ids included). */
export function assertAllFound(ids: readonly string[], found: { has(id: string): boolean }, pointer: string, what: string): void {
  const issues = ids.flatMap((id, i) => (found.has(id.toLowerCase()) ? [] : [{ pointer: `${pointer}/${i}`, message: `no ${what} ${JSON.stringify(id)} in this workspace` }]));
  if (issues.length > 0) throw validationError(`the ${what} list names ${what}s that do not exist`, issues);
}

/**
 * No escalation: every key in `grants` (each with the pointer of the body entry that grants it) must be
 * held by the caller. Runs inside the permission transaction, so it sees the caller's current roles.
 */
export async function assertMayGrant(tx: Db, auth: V1AuthContext, grants: readonly { key: string; pointer: string }[]): Promise<void> {
  if (grants.length === 0) return;
  const held = new Set(auth.effectiveScopes);
  if (grants.some((g) => SETTINGS_KEYS.has(g.key)) && auth.principal.type === 'member') {
    for (const key of await memberPermissionKeys(tx, auth.workspaceId, auth.principal.id)) if (SETTINGS_KEYS.has(key)) held.add(key);
  }
  const missingByPointer = new Map<string, string[]>();
  for (const g of grants) if (!held.has(g.key)) missingByPointer.set(g.pointer, [...(missingByPointer.get(g.pointer) ?? []), g.key]);
  if (missingByPointer.size === 0) return;
  const issues = [...missingByPointer].map(([pointer, keys]) => ({ pointer, message: `the caller cannot grant what it does not hold: ${keys.join(', ')}` }));
  const missing = [...new Set([...missingByPointer.values()].flat())];
  throw new DomainError('insufficient_scope', `the calling credential cannot grant permissions it does not hold: ${missing.join(', ')}`, issues, { missingScopes: missing });
}

/** How many members can administer the workspace now; call before a change and pass it to assertAdministrable after. */
export function countAdministrators(tx: Db, workspaceId: string): Promise<number> {
  return countMembersHoldingAll(tx, workspaceId, ADMINISTRATION_PERMISSIONS);
}

/**
 * The lock-out guard, checked after the change inside its transaction (which holds the workspace's
 * permission lock): refused when the change took the last administrator away. A workspace that had none
 * before (legacy data) is not made worse by a change that leaves none, so that is allowed.
 */
export async function assertAdministrable(tx: Db, workspaceId: string, before: number): Promise<void> {
  if (before === 0) return;
  if ((await countAdministrators(tx, workspaceId)) > 0) return;
  throw new DomainError('last_administrator', `the change would leave no active member holding ${ADMINISTRATION_PERMISSIONS.join(' and ')}; give another member those permissions first`);
}
