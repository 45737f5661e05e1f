import { z } from 'zod';
import { findComment } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { authInput } from '../kernel/inputs.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { viewerOf } from '../kernel/visibility.js';
import { commentNotFound, type CommentView, requireCommentTarget, versionedComment } from './view.js';

export const getCommentInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/comments/{id}`: one comment (deleted ones, other workspaces' and those on a project hidden from the caller are 404), under its target's rule. */
export const getComment = defineProcedure('getComment', getCommentInput, async (ctx, { auth, id }): Promise<Versioned<CommentView>> => {
  requireGrant(auth, 'comment', id, 'read', 'comment');
  const row = isUuid(id) ? await findComment(ctx.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw commentNotFound();
  requireCommentTarget(auth, row);
  return versionedComment(row);
});
