import { Prisma } from './generated/prisma/client.js';
import type { CommentTargetType } from './generated/prisma/enums.js';
import type { Db } from './database.js';
import { resourceReadableSql, type Viewer } from './visibility.js';

/** The resources comments and activity attach to (the `comment_target_type` enum), stored in their own tables. */
export type TargetKind = CommentTargetType;

/** Each kind's table, and the project column of its row `x` (its sharing, visibility.ts): a contact belongs to none. */
const TABLES: Readonly<Record<TargetKind, { table: Prisma.Sql; project: Prisma.Sql | undefined }>> = {
  contact: { table: Prisma.raw('contacts'), project: undefined },
  project: { table: Prisma.raw('projects'), project: Prisma.sql`x.id` },
  task: { table: Prisma.raw('tasks'), project: Prisma.sql`x.project_id` },
};

/**
 * Whether a target exists in the workspace (archived or not) and `viewer` may see it (its rule in visibility.ts:
 * grants and its project's sharing, in the statement): null when it does not or may not. One primary-key lookup.
 */
export async function findTargetState(client: Db, workspaceId: string, kind: TargetKind, id: string, viewer: Viewer): Promise<{ readonly archived: boolean } | null> {
  const { table, project } = TABLES[kind];
  const readable = resourceReadableSql(kind, Prisma.sql`x.workspace_id`, Prisma.sql`x.id`, viewer, project === undefined ? {} : { project });
  const [row] = await client.rows<{ archived: boolean }>(
    Prisma.sql`SELECT x.archived_at IS NOT NULL AS archived FROM ${table} x WHERE x.workspace_id = ${workspaceId}::uuid AND x.id = ${id}::uuid AND ${readable}`,
  );
  return row ?? null;
}
