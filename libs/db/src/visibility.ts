import { Prisma } from './generated/prisma/client.js';
import type { GrantResourceType } from './resource-grants.js';
import type { Db } from './database.js';

/**
 * Who may see what, beyond tenancy: one rule per resource type, written as SQL so every path that shows resources
 * (gets, lists, search, the change feed, webhook fan-out, exports, activity) filters in its own statement, the way
 * `workspace_id` does for tenancy. Three parts, each decided here once (docs/sharing.md):
 * - **sharing**: a resource that belongs to a project follows it. A project without access-control entries is open
 *   to the workspace (scopes decide); one with entries is visible only to the listed members, the members of listed
 *   groups and the listed service accounts, and to unrestricted viewers (administrators, v0 team tokens);
 * - **resource grants**: a service account sees only what its grants name (kernel/grants.ts in the domain);
 * - **ownership**: a credential-owned resource (an export, a webhook subscription) is visible to its owner only.
 * A type with no rule here is visible to the whole workspace; `RESOURCE_RULES` lists every outbox aggregate type,
 * and a test fails when the event catalog names one that is missing.
 */

/** The caller, as the rules need it. Built once per request by the domain (kernel/visibility.ts). */
export interface Viewer {
  /** Sees every project whatever its entries: a workspace administrator, or a v0 team token (contract 5.1). */
  readonly unrestricted: boolean;
  readonly memberId: string | null;
  readonly serviceAccountId: string | null;
  readonly credentialId: string;
  /**
   * The shared projects hidden from the viewer, computed with `hiddenProjectIds` when its credential was verified
   * (kept while the workspace's authorization epoch stands: sharing and group changes move it): statements then
   * compare a project column with this list instead of planning the entries' subquery on every request. Null: not
   * known (a context built without it), and statements apply the rule on the entries themselves.
   */
  readonly hiddenProjects: readonly string[] | null;
  /** A service account's grants by type: null for every resource of the type, else the ids; a type absent: none. Null: not bounded by grants. */
  readonly grants: ReadonlyMap<GrantResourceType, readonly string[] | null> | null;
}

export type ProjectAccess = 'open' | 'viewer' | 'editor' | 'manager' | 'none';

type Expr = (workspace: Prisma.Sql, id: Prisma.Sql) => Prisma.Sql;

export interface ResourceRule {
  /** The project the resource belongs to (null when none), as an expression of its workspace and id. */
  readonly project?: Expr;
  /** The grant a service account needs: its type, and the id the grant must name. */
  readonly grant?: { readonly type: GrantResourceType; readonly id: Expr };
  /** The credential that owns the resource: nobody else sees it. */
  readonly owner?: Expr;
}

const self: Expr = (_w, id) => id;
const column =
  (table: string, col: string): Expr =>
  (w, id) =>
    Prisma.sql`(SELECT x.${Prisma.raw(col)} FROM ${Prisma.raw(table)} x WHERE x.workspace_id = ${w} AND x.id = ${id})`;
const taskProject = column('tasks', 'project_id');
/**
 * The project of a comment's or document's target, of its row `alias` (target_type, target_id): a project, a task's
 * project, or none (a contact). A statement over those tables passes it as `columns.project` (resourceReadableSql).
 */
export function targetProjectSql(alias: string): Prisma.Sql {
  const x = Prisma.raw(alias);
  return Prisma.sql`CASE ${x}.target_type::text WHEN 'project' THEN ${x}.target_id WHEN 'task' THEN (SELECT t.project_id FROM tasks t WHERE t.workspace_id = ${x}.workspace_id AND t.id = ${x}.target_id) END`;
}
const targetProject =
  (table: string): Expr =>
  (w, id) =>
    Prisma.sql`(SELECT ${targetProjectSql('x')} FROM ${Prisma.raw(table)} x WHERE x.workspace_id = ${w} AND x.id = ${id})`;
/** The project of a time entry row `alias`: its own, else its task's. A statement over time_entries passes it as `columns.project`. */
export function timeEntryProjectSql(alias: string): Prisma.Sql {
  const x = Prisma.raw(alias);
  return Prisma.sql`COALESCE(${x}.project_id, (SELECT t.project_id FROM tasks t WHERE t.workspace_id = ${x}.workspace_id AND t.id = ${x}.task_id))`;
}
const granted = (type: GrantResourceType, id: Expr = self) => ({ grant: { type, id } });

/** Every outbox aggregate type's rule (the resources v1 shows). */
export const RESOURCE_RULES = {
  project: { project: self, ...granted('project') },
  task: { project: taskProject, ...granted('task') },
  time_entry: {
    project: (w, id) => Prisma.sql`(SELECT ${timeEntryProjectSql('x')} FROM time_entries x WHERE x.workspace_id = ${w} AND x.id = ${id})`,
    ...granted('time_entry'),
  },
  project_statement: { project: column('project_statements', 'project_id'), ...granted('project_statement') },
  // A series follows its template task, in sharing and in grants (reading it needs a grant on that task).
  task_recurrence: {
    project: (w, id) => Prisma.sql`(SELECT t.project_id FROM task_recurrences x JOIN tasks t ON t.workspace_id = x.workspace_id AND t.id = x.task_id WHERE x.workspace_id = ${w} AND x.id = ${id})`,
    grant: { type: 'task', id: column('task_recurrences', 'task_id') },
  },
  comment: { project: targetProject('comments'), ...granted('comment') },
  document: { project: targetProject('documents'), ...granted('document') },
  contact: granted('contact'),
  contact_group: granted('contact_group'),
  call_note: granted('call_note'),
  list: granted('list'),
  service: granted('service'),
  tag: granted('tag'),
  product: granted('product'),
  product_group: granted('product_group'),
  project_template: granted('project_template'),
  file: granted('file'),
  appointment: granted('appointment'),
  absence: granted('absence'),
  export: { owner: column('exports', 'requested_by_credential_id') },
  webhook: { owner: column('webhook_subscriptions', 'owner_credential_id') },
  workspace: {},
  custom_field_definition: {},
  invitation: {},
  automation_definition: {},
  automation_run: {},
} as const satisfies Record<string, ResourceRule>;
export type RuledResourceType = keyof typeof RESOURCE_RULES;

export function isRuledResourceType(type: string): type is RuledResourceType {
  return Object.hasOwn(RESOURCE_RULES, type);
}

/** The principal's entries among a project's entries `a` (the members of its live groups count as listed). */
function principalMatch(workspace: Prisma.Sql, viewer: Viewer): Prisma.Sql {
  const byMember =
    viewer.memberId === null
      ? Prisma.sql`false`
      : Prisma.sql`(a.member_id = ${viewer.memberId}::uuid OR a.group_id IN (SELECT gm.group_id FROM group_members gm JOIN groups g ON g.workspace_id = gm.workspace_id AND g.id = gm.group_id AND g.archived_at IS NULL WHERE gm.workspace_id = ${workspace} AND gm.member_id = ${viewer.memberId}::uuid))`;
  const byServiceAccount = viewer.serviceAccountId === null ? Prisma.sql`false` : Prisma.sql`a.service_account_id = ${viewer.serviceAccountId}::uuid`;
  return Prisma.sql`(${byMember} OR ${byServiceAccount})`;
}

/**
 * Whether the viewer may read project `project` (a uuid expression; null, a resource of no project, is readable):
 * no entries (bool_or over none is null) or an entry naming the viewer. One index range of the project's entries.
 */
export function projectReadableSql(workspace: Prisma.Sql, project: Prisma.Sql, viewer: Viewer): Prisma.Sql {
  if (viewer.unrestricted || viewer.hiddenProjects?.length === 0) return Prisma.sql`true`;
  if (viewer.hiddenProjects) return Prisma.sql`(${project} IS NULL OR ${project} <> ALL(${[...viewer.hiddenProjects]}::uuid[]))`;
  return Prisma.sql`COALESCE((SELECT bool_or(${principalMatch(workspace, viewer)}) FROM project_access_entries a WHERE a.workspace_id = ${workspace} AND a.project_id = ${project}), true)`;
}

function grantSql(viewer: Viewer, type: GrantResourceType, id: Prisma.Sql): Prisma.Sql {
  if (viewer.grants === null) return Prisma.sql`true`;
  if (!viewer.grants.has(type)) return Prisma.sql`false`;
  const ids = viewer.grants.get(type);
  return ids === null || ids === undefined ? Prisma.sql`true` : Prisma.sql`${id} = ANY(${[...ids]}::uuid[])`;
}

/**
 * Whether the viewer may read the resource of `type` with id `id` in `workspace` (SQL expressions): its whole rule.
 * `columns.project`: the row's own project column, when the statement reads the resource's table (no lookup by id).
 */
export function resourceReadableSql(type: RuledResourceType, workspace: Prisma.Sql, id: Prisma.Sql, viewer: Viewer, columns: { readonly project?: Prisma.Sql } = {}): Prisma.Sql {
  const rule: ResourceRule = RESOURCE_RULES[type];
  const parts: Prisma.Sql[] = [];
  if (rule.grant) parts.push(grantSql(viewer, rule.grant.type, rule.grant.type === type ? id : rule.grant.id(workspace, id)));
  if (rule.owner) parts.push(Prisma.sql`${rule.owner(workspace, id)} = ${viewer.credentialId}::uuid`);
  // A statement over the resource's own table passes its project column instead of the rule's lookup by id.
  if (rule.project && !viewer.unrestricted && viewer.hiddenProjects?.length !== 0) parts.push(projectReadableSql(workspace, columns.project ?? rule.project(workspace, id), viewer));
  return parts.length === 0 ? Prisma.sql`true` : Prisma.sql`(${Prisma.join(parts, ' AND ')})`;
}

/**
 * Whether the viewer may read the aggregate of outbox event `o` (the change feed, webhook fan-out): the rule of its
 * aggregate type, as the resource is now (an event of a task moved into a project the viewer cannot see is hidden).
 */
export function eventReadableSql(viewer: Viewer, types: readonly string[] = Object.keys(RESOURCE_RULES)): Prisma.Sql {
  const w = Prisma.sql`o.workspace_id`;
  const id = Prisma.sql`o.aggregate_id`;
  const branches = types.filter(isRuledResourceType).flatMap((type) => {
    const readable = resourceReadableSql(type, w, id, viewer);
    return readable.sql === 'true' ? [] : [Prisma.sql`WHEN ${type} THEN ${readable}`];
  });
  return branches.length === 0 ? Prisma.sql`true` : Prisma.sql`(CASE o.aggregate_type ${Prisma.join(branches, ' ')} ELSE true END)`;
}

async function accessTo(client: Db, workspaceId: string, project: Prisma.Sql, viewer: Viewer): Promise<{ projectId: string; access: ProjectAccess } | null> {
  const w = Prisma.sql`${workspaceId}::uuid`;
  const [row] = await client.rows<{
    id: string;
    entries: number;
    level: number | null;
  }>(Prisma.sql`SELECT p.id::text AS id, (SELECT count(*)::int FROM project_access_entries a WHERE a.workspace_id = p.workspace_id AND a.project_id = p.id) AS entries,
        (SELECT max(CASE a.access WHEN 'manager' THEN 3 WHEN 'editor' THEN 2 ELSE 1 END)::int FROM project_access_entries a
          WHERE a.workspace_id = p.workspace_id AND a.project_id = p.id AND ${principalMatch(w, viewer)}) AS level
      FROM projects p WHERE p.workspace_id = ${w} AND p.id = ${project}`);
  if (!row) return null;
  const access: ProjectAccess = viewer.unrestricted ? 'manager' : row.entries === 0 ? 'open' : row.level === null ? 'none' : (['viewer', 'editor', 'manager'] as const)[row.level - 1]!;
  return { projectId: row.id, access };
}

/** The viewer's access to one project: `open` (no entries: scopes decide), its entry's level, `none`; null: no such project. */
export async function projectAccess(client: Db, workspaceId: string, projectId: string, viewer: Viewer): Promise<ProjectAccess | null> {
  return (await accessTo(client, workspaceId, Prisma.sql`${projectId}::uuid`, viewer))?.access ?? null;
}

/**
 * The project a resource of `type` belongs to now and the viewer's access to it, in one statement; null when it
 * belongs to none (or there is no such resource: the caller's own statement decides that).
 */
export async function resourceProjectAccess(client: Db, type: RuledResourceType, workspaceId: string, id: string, viewer: Viewer): Promise<{ projectId: string; access: ProjectAccess } | null> {
  const rule: ResourceRule = RESOURCE_RULES[type];
  if (!rule.project) return null;
  return accessTo(client, workspaceId, rule.project(Prisma.sql`${workspaceId}::uuid`, Prisma.sql`${id}::uuid`), viewer);
}

/**
 * The projects with access-control entries none of which names the principal (directly, or through a live group it
 * belongs to): the projects sharing hides from it. One statement over the workspace's entries, made when a
 * credential is verified (identity/authenticate-credential.ts in the domain).
 */
export async function hiddenProjectIds(client: Db, workspaceId: string, principal: { readonly memberId: string | null; readonly serviceAccountId: string | null }): Promise<string[]> {
  const w = Prisma.sql`${workspaceId}::uuid`;
  const viewer: Viewer = { unrestricted: false, hiddenProjects: null, credentialId: '', grants: null, ...principal };
  const rows = await client.rows<{ id: string }>(
    Prisma.sql`SELECT a.project_id::text AS id FROM project_access_entries a WHERE a.workspace_id = ${w} GROUP BY a.project_id HAVING NOT bool_or(${principalMatch(w, viewer)}) ORDER BY a.project_id`,
  );
  return rows.map((r) => r.id);
}

/** Which of these outbox events (ids) the viewer may read now: one statement (webhook fan-out, per owner). */
export async function readableEventIds(client: Db, workspaceId: string, eventIds: readonly string[], viewer: Viewer): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await client.rows<{ id: string }>(
    Prisma.sql`SELECT o.id::text AS id FROM outbox_events o WHERE o.workspace_id = ${workspaceId}::uuid AND o.id = ANY(${[...eventIds]}::uuid[]) AND ${eventReadableSql(viewer)}`,
  );
  return new Set(rows.map((r) => r.id));
}
