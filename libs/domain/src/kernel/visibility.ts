import { type GrantResourceType, type ProjectAccess, projectAccess, resourceProjectAccess, type RuledResourceType, type Db, type Viewer } from '@workcell/db';
import type { V1AuthContext } from './auth-context.js';
import { DomainError } from './errors.js';
import { isUuid } from './ids.js';

/**
 * The caller as the visibility rules see it (libs/db visibility.ts holds the rules, as SQL every read path uses;
 * docs/sharing.md the model). Decisions:
 * - A workspace administrator (a member whose credential holds both administration permissions, roles:write and
 *   members:write, as the lock-out guard counts them) and a v0 team token (team-wide, contract 5.1) see every
 *   project whatever its entries; everyone else sees a project with entries only through an entry naming them
 *   (directly, or a live group they belong to).
 * - Access levels: `viewer` reads the project and what belongs to it, `editor` also changes them, `manager` also
 *   replaces the entries. A project without entries is `open`: scopes and grants alone decide, as before sharing.
 */

/** Holding both lets a member give every other permission back to anyone: the workspace stays administrable. */
export const ADMINISTRATION_PERMISSIONS = ['roles:write', 'members:write'] as const;

const viewers = new WeakMap<V1AuthContext, Viewer>();

export function isAdministrator(auth: Pick<V1AuthContext, 'principal' | 'effectiveScopes'>): boolean {
  return auth.principal.type === 'member' && ADMINISTRATION_PERMISSIONS.every((p) => auth.effectiveScopes.includes(p));
}

/** The caller's Viewer, built once per auth context (a request's, a job's owner's). */
export function viewerOf(auth: V1AuthContext): Viewer {
  let viewer = viewers.get(auth);
  if (viewer) return viewer;
  let grants: Map<GrantResourceType, string[] | null> | null = null;
  if (auth.principal.type === 'service_account') {
    grants = new Map();
    for (const g of auth.grants ?? []) {
      const held = grants.get(g.resourceType);
      if (g.resourceId === null || held === null) grants.set(g.resourceType, null);
      else grants.set(g.resourceType, [...(held ?? []), g.resourceId.toLowerCase()]);
    }
  }
  const unrestricted = auth.teamWide === true || isAdministrator(auth);
  viewer = {
    unrestricted,
    hiddenProjects: unrestricted ? [] : (auth.hiddenProjectIds ?? null),
    memberId: auth.principal.type === 'member' ? auth.principal.id : null,
    serviceAccountId: auth.principal.type === 'service_account' ? auth.principal.id : null,
    credentialId: auth.credential.id,
    grants,
  };
  viewers.set(auth, viewer);
  return viewer;
}

export type ProjectNeed = 'read' | 'write' | 'manage';

const ENOUGH: Readonly<Record<ProjectNeed, readonly ProjectAccess[]>> = {
  read: ['open', 'viewer', 'editor', 'manager'],
  write: ['open', 'editor', 'manager'],
  manage: ['manager'],
};

function refuse(access: ProjectAccess | null, need: ProjectNeed, what: string, pointer?: string): void {
  if ((access === null || access === 'none') && pointer !== undefined)
    throw new DomainError('validation_failed', `no such ${what} in this workspace`, [{ pointer, message: `no such ${what} in this workspace` }]);
  if (access === null || access === 'none') throw new DomainError('not_found', `${what} not found`);
  if (need === 'manage' && access === 'open') {
    throw new DomainError('insufficient_project_access', 'only a workspace administrator (roles:write and members:write) sets the first access-control entries of a project', [], { access });
  }
  if (!ENOUGH[need].includes(access)) {
    const needed = need === 'manage' ? 'manager' : 'editor or manager';
    throw new DomainError('insufficient_project_access', `this project's access-control entries give the caller ${access} access; ${needed} is needed`, [], { access });
  }
}

/**
 * Throws unless the caller's sharing access to `projectId` covers `need`: 404 `not_found` ("<what> not found")
 * when it may not even see the project (or there is none), 403 `insufficient_project_access` when it sees it with
 * too little. `manage` of an open project needs an administrator (only they add the first entries, so nobody
 * lists themselves). A null project (a task without one) is always allowed; administrators and v0 team tokens
 * pass without a statement. With `pointer` the project is a reference in a body: one the caller cannot see is
 * 400 `validation_failed` at that pointer, exactly like one that does not exist.
 */
export async function requireProjectAccess(client: Db, auth: V1AuthContext, projectId: string | null, need: ProjectNeed, what: string, pointer?: string): Promise<void> {
  if (projectId === null) return;
  const viewer = viewerOf(auth);
  if (viewer.unrestricted) return;
  refuse(isUuid(projectId) ? await projectAccess(client, auth.workspaceId, projectId.toLowerCase(), viewer) : null, need, what, pointer);
}

/**
 * The same for a resource that belongs to a project (its type's rule, libs/db visibility.ts): its project now.
 * A resource of no project (or none at all: the caller's own statement answers 404) passes.
 */
export async function requireResourceAccess(client: Db, auth: V1AuthContext, type: RuledResourceType, id: string, need: ProjectNeed, what: string): Promise<void> {
  const viewer = viewerOf(auth);
  if (viewer.unrestricted || !isUuid(id)) return;
  const found = await resourceProjectAccess(client, type, auth.workspaceId, id.toLowerCase(), viewer);
  if (found !== null) refuse(found.access, need, what);
}
