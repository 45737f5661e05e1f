import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';

/**
 * v0 pages by number (issue 11). A v0 collection is the v1 list in id (creation) order, cut into pages of
 * `limit`; page N starts after the row at 0-based position (N-1)·limit − 1. That row is found here in one
 * statement, `… ORDER BY id OFFSET k LIMIT 1`, which PostgreSQL answers from an index alone (the rows before
 * the page are counted in the index, never read from the heap); the page itself is then the v1 list after that
 * id. Each list's conditions are those of its v1 list as the v0 adapter calls it (no filter, no resource
 * grants: a v0 team token has none) and must stay so: `legacy-pages.test.ts` compares every list with a walk.
 */

export type LegacyPagedList =
  | 'tasks'
  | 'projects'
  | 'users'
  | 'services'
  | 'projectTemplates'
  | 'timeEntries'
  | 'contacts'
  | 'contactGroups'
  | 'callNotes'
  | 'lists'
  | 'products'
  | 'productGroups'
  | 'projectStatements'
  | 'legacyWebhooks'
  | 'tags';

/** Table and row condition of each list (constants, never input). */
const LISTS: Record<LegacyPagedList, { readonly table: string; readonly live: string }> = {
  tasks: { table: 'tasks', live: 'archived_at IS NULL' },
  projects: { table: 'projects', live: 'archived_at IS NULL' },
  users: { table: 'workspace_members', live: 'removed_at IS NULL' },
  services: { table: 'services', live: 'archived_at IS NULL' },
  projectTemplates: { table: 'project_templates', live: 'archived_at IS NULL' },
  timeEntries: { table: 'time_entries', live: 'archived_at IS NULL' },
  contacts: { table: 'contacts', live: 'archived_at IS NULL' },
  contactGroups: { table: 'contact_groups', live: 'archived_at IS NULL' },
  callNotes: { table: 'call_notes', live: 'archived_at IS NULL AND contact_id IS NOT NULL' },
  lists: { table: 'lists', live: 'archived_at IS NULL' },
  products: { table: 'products', live: 'archived_at IS NULL' },
  productGroups: { table: 'product_groups', live: 'archived_at IS NULL' },
  // v0 journal entries always read with the finance overlay, so budget statements are listed too.
  projectStatements: { table: 'project_statements', live: 'archived_at IS NULL' },
  legacyWebhooks: { table: 'legacy_webhooks', live: 'archived_at IS NULL' },
  tags: { table: 'tags', live: 'archived_at IS NULL' },
};

/** The id of the row at 0-based position `position` of the list in id order, or null past its end. */
export async function legacyRowAt(client: Db, list: LegacyPagedList, workspaceId: string, position: number): Promise<string | null> {
  const { table, live } = LISTS[list];
  // Only the found id is turned into text: a cast in the scan would run for every row skipped (3× slower).
  const rows = await client.prisma.$queryRaw<{ at: string | null }[]>`
    SELECT (SELECT id FROM ${Prisma.raw(table)} WHERE workspace_id = ${workspaceId}::uuid AND ${Prisma.raw(live)} ORDER BY id OFFSET ${position} LIMIT 1)::text AS at`;
  return rows[0]?.at ?? null;
}

export interface LegacyPlannedWorkFilter {
  readonly from: Date;
  readonly to: Date;
  readonly memberId?: string | undefined;
  readonly projectId?: string | undefined;
  readonly taskId?: string | undefined;
}

/** legacyRowAt for planned work in a window (listPlannedWorkPage's conditions: its task unarchived). */
export async function legacyPlannedWorkAt(client: Db, workspaceId: string, filter: LegacyPlannedWorkFilter, position: number): Promise<string | null> {
  const rows = await client.prisma.$queryRaw<{ at: string | null }[]>`
    SELECT (SELECT w.id
    FROM planned_work w JOIN tasks t ON t.workspace_id = w.workspace_id AND t.id = w.task_id
    WHERE w.workspace_id = ${workspaceId}::uuid AND t.archived_at IS NULL
      AND w.window_end > ${filter.from} AND w.window_start < ${filter.to}
      ${filter.memberId === undefined ? Prisma.empty : Prisma.sql`AND w.member_id = ${filter.memberId}::uuid`}
      ${filter.taskId === undefined ? Prisma.empty : Prisma.sql`AND w.task_id = ${filter.taskId}::uuid`}
      ${filter.projectId === undefined ? Prisma.empty : Prisma.sql`AND t.project_id = ${filter.projectId}::uuid`}
    ORDER BY w.id OFFSET ${position} LIMIT 1)::text AS at`;
  return rows[0]?.at ?? null;
}
