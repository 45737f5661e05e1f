import { Prisma } from './generated/prisma/client.js';
import type { CommentTargetType } from './generated/prisma/enums.js';
import { readRows, type SqlClient } from './transactions.js';

/** The resources comments and activity attach to (the `comment_target_type` enum), stored in their own tables. */
export type TargetKind = CommentTargetType;

const TABLES: Readonly<Record<TargetKind, Prisma.Sql>> = {
  contact: Prisma.raw('contacts'),
  project: Prisma.raw('projects'),
  task: Prisma.raw('tasks'),
};

/** Whether a target exists in the workspace (archived or not): null when it does not. One primary-key lookup. */
export async function findTargetState(client: SqlClient, workspaceId: string, kind: TargetKind, id: string): Promise<{ readonly archived: boolean } | null> {
  const [row] = await readRows<{ archived: boolean }>(
    client,
    Prisma.sql`SELECT archived_at IS NOT NULL AS archived FROM ${TABLES[kind]} WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid`,
  );
  return row ?? null;
}
