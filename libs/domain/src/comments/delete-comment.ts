import { z } from 'zod';
import { appendOutboxEvent, findComment, inTransaction, markCommentDeleted } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { writeInput } from '../kernel/inputs.js';
import { defineProcedure } from '../kernel/procedure.js';
import { commentNotFound, commentView, deletedCommentView, requireAuthorOrModerator, requireCommentTarget } from './view.js';

export const deleteCommentInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/comments/{id}`: the comment is deleted (`archived_at` set; 404 from then on, a second delete
 * included). The author, or a workspace administrator to moderate (403 `forbidden` otherwise); the target's rule
 * first. No precondition. Writes `comment.deleted` (the comment's identity and target, not its text) in the same
 * transaction.
 */
export const deleteComment = defineProcedure('deleteComment', deleteCommentInput, async (ctx, input): Promise<{ deleted: true }> => {
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
    await requireAuthorOrModerator(tx, auth, existing);
    if (!(await markCommentDeleted(tx, workspaceId, id, now))) throw commentNotFound();
    await appendOutboxEvent(tx, { workspaceId, aggregateType: 'comment', aggregateId: id, eventType: 'comment.deleted', payload: { comment: deletedCommentView(commentView(existing)), requestId }, occurredAt: now });
    return { deleted: true as const };
  });
});
