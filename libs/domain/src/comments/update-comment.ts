import { z } from 'zod';
import { appendOutboxEvent, findComment, inTransaction, updateCommentBody } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { writeInput } from '../kernel/inputs.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { COMMENT_BODY_MAX, commentNotFound, type CommentView, requireAuthor, requireCommentTarget, versionedComment } from './view.js';

export const updateCommentInput = z.object({ ...writeInput, id: z.string().max(64), body: z.string().min(1).max(COMMENT_BODY_MAX) }).strict();

/**
 * `PATCH /v1/comments/{id}`: a new body, `editedAt` now. Only the author (403 `forbidden`); the target's rule
 * first (403 scope, 404 when the target is unreadable). No precondition, as the registry declares: the last writer
 * wins. Writes `comment.updated` in the same transaction.
 */
export const updateComment = defineProcedure('updateComment', updateCommentInput, async (ctx, input): Promise<Versioned<CommentView>> => {
  const { auth, requestId } = input;
  requireGrant(auth, 'comment', input.id, 'write', 'comment');
  if (!isUuid(input.id)) throw commentNotFound();
  const workspaceId = auth.workspaceId;
  const id = input.id.toLowerCase();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const existing = await findComment(tx, workspaceId, id);
    if (!existing) throw commentNotFound();
    requireCommentTarget(auth, existing);
    requireAuthor(auth, existing);
    if (!(await updateCommentBody(tx, workspaceId, id, input.body, now))) throw commentNotFound();
    const row = await findComment(tx, workspaceId, id);
    if (!row) throw commentNotFound();
    const result = versionedComment(row);
    await appendOutboxEvent(tx, { workspaceId, aggregateType: 'comment', aggregateId: id, eventType: 'comment.updated', payload: { comment: { ...result.resource }, changed: ['body'], requestId }, occurredAt: now });
    return result;
  });
});
