import { z } from 'zod';
import { findTargetState, type Db, type TargetKind } from '@workcell/db';
import type { GrantAccessLevel, V1AuthContext } from './auth-context.js';
import { DomainError, isDomainError } from './errors.js';
import { requireGrant } from './grants.js';
import { isUuid } from './ids.js';
import { assertScopes } from './scopes.js';
import { type ProjectNeed, requireResourceAccess, viewerOf } from './visibility.js';

/**
 * Targets: the contacts, projects and tasks that comments and activity (and custom-field values) attach to, and
 * the registry's dynamic scope rule `target-resource` (contract 5.3: comments and activity "also need the matching
 * contact, project or task read scope"). The gate can only check the static part (`anyOfScopes`: one of the three
 * read scopes); which one is needed depends on the request's target, so every procedure of an operation whose
 * registry entry declares `dynamicScopes: 'target-resource'` enforces it here, before it reveals anything of the
 * target: `resolveTarget` for a target the request names, `requireTargetAccess` for the stored target of a
 * resource addressed by id.
 *
 * Sharing (kernel/visibility.ts, issue 24) is decided here once for every family that names a target
 * (`findVisibleTarget`): a project target, or a task target in a project, that the caller may not see is missing,
 * exactly like one that does not exist; a write to it (commenting, values, a new document on it) needs `editor` or
 * `manager` access to that project when it has access-control entries. A contact belongs to no project.
 */

/** The registry's `TargetType` (wire names) with the stored type (grants, comments, outbox aggregate) and scopes. */
export const TARGETS = {
  contacts: { kind: 'contact', what: 'contact', scopes: { read: 'contacts:read', write: 'contacts:write' } },
  projects: { kind: 'project', what: 'project', scopes: { read: 'projects:read', write: 'projects:write' } },
  tasks: { kind: 'task', what: 'task', scopes: { read: 'tasks:read', write: 'tasks:write' } },
} as const satisfies Record<string, { kind: TargetKind; what: string; scopes: Record<GrantAccessLevel, string> }>;

export type TargetType = keyof typeof TARGETS;
export const targetTypeInput = z.enum(Object.keys(TARGETS) as [TargetType, ...TargetType[]]);

const TYPE_OF_KIND = new Map(Object.entries(TARGETS).map(([type, t]) => [t.kind as TargetKind, type as TargetType]));

/** The wire type of a stored target kind. */
export function targetTypeOf(kind: TargetKind): TargetType {
  return TYPE_OF_KIND.get(kind)!;
}

/** A target the caller may use: its type, its id (lower case) and whether it is archived. */
export interface Target {
  readonly type: TargetType;
  readonly kind: TargetKind;
  readonly id: string;
  readonly archived: boolean;
}

/**
 * The scope half of `target-resource`: the caller must hold the `access` scope of the target's type, else 403
 * `insufficient_scope` naming it: the same error document the operation gate answers (kernel/scopes.ts).
 */
export function requireTargetScope(auth: V1AuthContext, type: TargetType, access: GrantAccessLevel = 'read'): void {
  assertScopes(auth.effectiveScopes, [TARGETS[type].scopes[access]]);
}

/**
 * Both halves for the stored target of a resource addressed by id (a comment): the target type's scope (403), then
 * the resource grants (kernel/grants.ts) on the target. A target the caller may not read hides the resource:
 * `hidden` is thrown (404 of that resource, exactly like a missing one).
 */
export function requireTargetAccess(auth: V1AuthContext, target: { readonly type: TargetType; readonly id: string }, hidden: () => DomainError, access: GrantAccessLevel = 'read'): void {
  requireTargetScope(auth, target.type, access);
  try {
    requireGrant(auth, TARGETS[target.type].kind, target.id, access, TARGETS[target.type].what);
  } catch (error) {
    throw isDomainError(error) && error.code === 'not_found' ? hidden() : error;
  }
}

export interface TargetUse {
  /** What the caller does with the target (its scope and grant): 'read' for comments and activity. */
  readonly access?: GrantAccessLevel;
  /**
   * What the caller does to the target's project under its sharing (kernel/visibility.ts): by default what `access`
   * says ('write' for a write); commenting reads the target but contributes to its project, so it needs 'write'.
   */
  readonly project?: ProjectNeed;
  /**
   * How a target that is not there is answered. Absent: the target is what the request reads (a query), so 404
   * `not_found` like any resource. Given: the target is a reference in a body, so 400 `validation_failed` with this
   * JSON pointer, as the other families answer references; `live` refuses an archived target the same way.
   */
  readonly reference?: { readonly pointer: string; readonly live: boolean };
}

/**
 * A target of the caller's workspace that the caller may see, by its stored kind: its state, or null when there is
 * none or the caller may not see it (its rule, libs/db visibility.ts: a service account's grants and the sharing
 * of its project, in the lookup's statement). With `need` beyond 'read', the caller's access to the target's
 * project must also cover it: 403 `insufficient_project_access` for a viewer (kernel/visibility.ts).
 */
export async function findVisibleTarget(client: Db, auth: V1AuthContext, kind: TargetKind, rawId: string, need: ProjectNeed = 'read'): Promise<{ readonly archived: boolean } | null> {
  if (!isUuid(rawId)) return null;
  const id = rawId.toLowerCase();
  const state = await findTargetState(client, auth.workspaceId, kind, id, viewerOf(auth));
  if (state !== null && need !== 'read') await requireResourceAccess(client, auth, kind, id, need, TARGETS[targetTypeOf(kind)].what);
  return state;
}

/**
 * The target a request names, checked in an order that reveals nothing: the target type's scope (403
 * `insufficient_scope`, before any lookup), the caller's resource grants on it (a target it may not read counts as
 * missing), then its existence in the caller's workspace and its visibility under sharing (another workspace's
 * target and one in a project the caller may not see are missing too), then the caller's access to that project
 * for a write (403 `insufficient_project_access`).
 */
export async function resolveTarget(client: Db, auth: V1AuthContext, ref: { readonly type: TargetType; readonly id: string }, use: TargetUse = {}): Promise<Target> {
  const { kind, what } = TARGETS[ref.type];
  const access = use.access ?? 'read';
  const missing = (problem = `no ${what} ${JSON.stringify(ref.id)} in this workspace`) =>
    use.reference ? new DomainError('validation_failed', `the ${what} is not valid`, [{ pointer: use.reference.pointer, message: problem }]) : new DomainError('not_found', `${what} not found`);
  requireTargetAccess(auth, ref, () => missing(), access);
  const id = ref.id.toLowerCase();
  const state = await findVisibleTarget(client, auth, kind, id, use.project ?? (access === 'write' ? 'write' : 'read'));
  if (state === null) throw missing();
  if (state.archived && use.reference?.live) throw missing(`the ${what} ${JSON.stringify(ref.id)} is archived`);
  return { type: ref.type, kind, id, archived: state.archived };
}
