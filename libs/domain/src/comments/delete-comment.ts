import { z } from 'zod';
import { markCommentDeleted } from '@workcell/db';

import { defineProcedure } from '../kernel/procedure.js';
import { commentNotFound, commentView, deletedCommentView, requireAuthorOrModerator, writeComment } from './view.js';

export const deleteCommentInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/comments/{id}`: the comment is deleted (`archived_at` set; 404 from then on, a second delete
 * included). The author, or a workspace administrator to moderate (403 `forbidden` otherwise); the target's rule
 * first. No precondition. Writes `comment.deleted` (the comment's identity and target, not its text) in the same
 * transaction.
 */
export const deleteComment = defineProcedure('deleteComment', deleteCommentInput, async (op, input): Promise<{ deleted: true }> => {
  const { auth, requestId } = op;
  return writeComment(op, auth, input.id, async (tx, existing, now) => {
    await requireAuthorOrModerator(tx, auth, existing);
    const { workspaceId } = auth;
    if (!(await markCommentDeleted(tx, workspaceId, existing.id, now))) throw commentNotFound();
    await op.emit(tx, {
      aggregateType: 'comment',
      aggregateId: existing.id,
      eventType: 'comment.deleted',
      payload: { comment: deletedCommentView(commentView(existing)), requestId },
      occurredAt: now,
    });
    return { deleted: true as const };
  });
});
