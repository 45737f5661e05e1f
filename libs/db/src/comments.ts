import { Prisma } from './generated/prisma/client.js';
import type { TargetKind } from './targets.js';
import type { Db } from './database.js';
import { resourceReadableSql, targetProjectSql, type Viewer } from './visibility.js';

/**
 * Comments on a contact, project or task, written by a member or a service account (exactly one: CHECK in SQL).
 * Deleting sets `archived_at` (nothing archivable is physically deleted) and a deleted comment is gone for every
 * read here: found by no lookup, listed by no page. Every query is scoped by the workspace id; reads for a caller
 * filter by its visibility rule (visibility.ts: a comment follows its target's project) in the statement.
 */

export interface CommentAuthor {
  readonly type: 'member' | 'service_account';
  readonly id: string;
}

export interface CommentRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly targetType: TargetKind;
  readonly targetId: string;
  readonly author: CommentAuthor;
  readonly body: string;
  readonly revision: number;
  readonly editedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const select = {
  id: true,
  workspaceId: true,
  targetType: true,
  targetId: true,
  authorMemberId: true,
  authorServiceAccountId: true,
  body: true,
  revision: true,
  editedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.CommentSelect;

/** The same columns of a comment row `c`, for the statements that filter by the visibility rule. */
const COLUMNS = Prisma.sql`c.id::text AS id, c.workspace_id::text AS "workspaceId", c.target_type::text AS "targetType", c.target_id::text AS "targetId",
  c.author_member_id::text AS "authorMemberId", c.author_service_account_id::text AS "authorServiceAccountId", c.body, c.revision,
  c.edited_at AS "editedAt", c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;

type Row = Omit<CommentRecord, 'author'> & { authorMemberId: string | null; authorServiceAccountId: string | null };

function record(row: Row): CommentRecord {
  const { authorMemberId, authorServiceAccountId, ...rest } = row;
  return Object.assign(rest, { author: authorMemberId !== null ? { type: 'member' as const, id: authorMemberId } : { type: 'service_account' as const, id: authorServiceAccountId ?? '' } });
}

const live = { archivedAt: null } as const;

/** Whether the viewer may see comment row `c` (visibility.ts: its grants and its target's project's sharing). */
const commentReadable = (viewer: Viewer) => resourceReadableSql('comment', Prisma.sql`c.workspace_id`, Prisma.sql`c.id`, viewer, { project: targetProjectSql('c') });

/**
 * One live comment of the workspace; null when it is missing or deleted, or (with a viewer) one it may not see.
 * Without a viewer: the platform's own read (after a write the caller was allowed to make).
 */
export async function findComment(client: Db, workspaceId: string, id: string, viewer: Viewer | null = null): Promise<CommentRecord | null> {
  const visible = viewer === null ? Prisma.sql`true` : commentReadable(viewer);
  const [row] = await client.rows<Row>(Prisma.sql`SELECT ${COLUMNS} FROM comments c WHERE c.workspace_id = ${workspaceId}::uuid AND c.id = ${id}::uuid AND c.archived_at IS NULL AND ${visible}`);
  return row ? record(row) : null;
}

/**
 * One keyset page of the live comments of one target that `viewer` may see, in id order (creation order), on
 * (workspace_id, target_type, target_id, id).
 */
export async function listCommentsPage(
  client: Db,
  workspaceId: string,
  target: { readonly kind: TargetKind; readonly id: string },
  afterId: string | undefined,
  take: number,
  viewer: Viewer,
): Promise<CommentRecord[]> {
  const rows = await client.rows<Row>(Prisma.sql`SELECT ${COLUMNS} FROM comments c
      WHERE c.workspace_id = ${workspaceId}::uuid AND c.target_type = ${target.kind}::comment_target_type AND c.target_id = ${target.id}::uuid AND c.archived_at IS NULL
        ${afterId === undefined ? Prisma.empty : Prisma.sql`AND c.id > ${afterId}::uuid`} AND ${commentReadable(viewer)}
      ORDER BY c.id LIMIT ${take}`);
  return rows.map(record);
}

export async function insertComment(tx: Db, workspaceId: string, input: { targetType: TargetKind; targetId: string; author: CommentAuthor; body: string }): Promise<CommentRecord> {
  const row = await tx.prisma.comment.create({
    data: {
      workspaceId,
      targetType: input.targetType,
      targetId: input.targetId,
      ...(input.author.type === 'member' ? { authorMemberId: input.author.id } : { authorServiceAccountId: input.author.id }),
      body: input.body,
    },
    select,
  });
  return record(row);
}

/** A new body, edited at `editedAt` (no precondition: the last writer wins); false when the comment is missing or deleted. */
export async function updateCommentBody(tx: Db, workspaceId: string, id: string, body: string, editedAt: Date): Promise<boolean> {
  const { count } = await tx.prisma.comment.updateMany({ where: { workspaceId, id, ...live }, data: { body, editedAt, revision: { increment: 1 } } });
  return count === 1;
}

/** Deletes the comment (sets `archived_at`); false when it is missing or already deleted. */
export async function markCommentDeleted(tx: Db, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const { count } = await tx.prisma.comment.updateMany({ where: { workspaceId, id, ...live }, data: { archivedAt: at, revision: { increment: 1 } } });
  return count === 1;
}
