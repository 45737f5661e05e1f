import { z } from 'zod';
import { findComment, updateCommentBody } from '@workcell/db';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { COMMENT_BODY_MAX, commentNotFound, type CommentView, requireAuthor, versionedComment, writeComment } from './view.js';

export const updateCommentInput = z.object({ id: z.string().max(64), body: z.string().min(1).max(COMMENT_BODY_MAX) }).strict();

/**
 * `PATCH /v1/comments/{id}`: a new body, `editedAt` now. Only the author (403 `forbidden`); the target's rule
 * first (403 scope, 404 when the target is unreadable). No precondition, as the registry declares: the last writer
 * wins. Writes `comment.updated` in the same transaction.
 */
export const updateComment = defineProcedure('updateComment', updateCommentInput, async (op, input): Promise<Versioned<CommentView>> => {
  const { auth } = op;
  return writeComment(op, auth, input.id, async (tx, existing, now) => {
    requireAuthor(auth, existing);
    const { workspaceId } = auth;
    if (!(await updateCommentBody(tx, workspaceId, existing.id, input.body, now))) throw commentNotFound();
    const row = await findComment(tx, workspaceId, existing.id);
    if (!row) throw commentNotFound();
    const result = versionedComment(row);
    await op.emit(tx, resourceEvent(op, { type: 'comment', id: row.id, action: 'updated', view: { ...result.resource }, changed: ['body'], at: now }));
    return result;
  });
});
