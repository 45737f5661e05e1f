import { type Client, clientOf, type Tx } from './transactions.js';
import type { Prisma } from './generated/prisma/client.js';
import { pageIds } from './keyset.js';
import type { TargetKind } from './targets.js';

/**
 * Comments on a contact, project or task, written by a member or a service account (exactly one: CHECK in SQL).
 * Deleting sets `archived_at` (nothing archivable is physically deleted) and a deleted comment is gone for every
 * read here: found by no lookup, listed by no page. Every query is scoped by the workspace id.
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

type Row = Omit<CommentRecord, 'author'> & { authorMemberId: string | null; authorServiceAccountId: string | null };

function record(row: Row): CommentRecord {
  const { authorMemberId, authorServiceAccountId, ...rest } = row;
  return { ...rest, author: authorMemberId !== null ? { type: 'member', id: authorMemberId } : { type: 'service_account', id: authorServiceAccountId ?? '' } };
}

const live = { archivedAt: null } as const;

/** One comment of the workspace; null when it is missing or deleted. */
export async function findComment(client: Client, workspaceId: string, id: string): Promise<CommentRecord | null> {
  const row = await clientOf(client).comment.findFirst({ where: { workspaceId, id, ...live }, select });
  return row ? record(row) : null;
}

/** One keyset page of one target's comments in id order (creation order), on (workspace_id, target_type, target_id, id). */
export async function listCommentsPage(
  client: Client,
  workspaceId: string,
  target: { readonly kind: TargetKind; readonly id: string; readonly onlyIds?: readonly string[] | null },
  afterId: string | undefined,
  take: number,
): Promise<CommentRecord[]> {
  const rows = await clientOf(client).comment.findMany({
    where: { workspaceId, targetType: target.kind, targetId: target.id, ...live, ...pageIds(afterId, target.onlyIds) },
    orderBy: { id: 'asc' },
    take,
    select,
  });
  return rows.map(record);
}

export async function insertComment(tx: Tx, workspaceId: string, input: { targetType: TargetKind; targetId: string; author: CommentAuthor; body: string }): Promise<CommentRecord> {
  const row = await tx.comment.create({
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
export async function updateCommentBody(tx: Tx, workspaceId: string, id: string, body: string, editedAt: Date): Promise<boolean> {
  const { count } = await tx.comment.updateMany({ where: { workspaceId, id, ...live }, data: { body, editedAt, revision: { increment: 1 } } });
  return count === 1;
}

/** Deletes the comment (sets `archived_at`); false when it is missing or already deleted. */
export async function markCommentDeleted(tx: Tx, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const { count } = await tx.comment.updateMany({ where: { workspaceId, id, ...live }, data: { archivedAt: at, revision: { increment: 1 } } });
  return count === 1;
}
