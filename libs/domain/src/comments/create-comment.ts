import { z } from 'zod';
import { insertComment } from '@workcell/db';
import { requireTypeGrant } from '../kernel/grants.js';

import { defineProcedure } from '../kernel/procedure.js';
import { requireTargetScope, resolveTarget, targetTypeInput } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { COMMENT_BODY_MAX, type CommentView, versionedComment } from './view.js';

export const createCommentInput = z.object({ targetType: targetTypeInput, targetId: z.string().max(64), body: z.string().min(1).max(COMMENT_BODY_MAX) }).strict();

/**
 * `POST /v1/comments`: a comment by the calling member or service account on a contact, project or task. Needs the
 * target type's read scope (403) and, for a service account, a type-wide `comment` write grant (403) and a grant that
 * lets it read the target. The target is a body reference: missing from the workspace (or unreadable, its project
 * hidden by sharing included) or archived is 400 `/targetId`; on a project with access-control entries commenting
 * needs `editor` or `manager` access (403 `insufficient_project_access` for a viewer; comments/view.ts). Writes `comment.created`, carrying the result for a held idempotency key, in the same
 * transaction.
 */
export const createComment = defineProcedure('createComment', createCommentInput, async (op, input): Promise<Versioned<CommentView>> => {
  const { auth } = op;
  requireTargetScope(auth, input.targetType);
  requireTypeGrant(auth, 'comment', 'write', 'comments');
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const target = await resolveTarget(tx, auth, { type: input.targetType, id: input.targetId }, { project: 'write', reference: { pointer: '/targetId', live: true } });
    const row = await insertComment(tx, workspaceId, { targetType: target.kind, targetId: target.id, author: auth.principal, body: input.body });
    const result = versionedComment(row);
    await op.emit(tx, resourceEvent(op, { type: 'comment', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
