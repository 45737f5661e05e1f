import { z } from 'zod';
import { findComment } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { viewerOf } from '../kernel/visibility.js';
import { commentNotFound, type CommentView, requireCommentTarget, versionedComment } from './view.js';

export const getCommentInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/comments/{id}`: one comment (deleted ones, other workspaces' and those on a project hidden from the caller are 404), under its target's rule. */
export const getComment = defineProcedure('getComment', getCommentInput, async (op, { id }): Promise<Versioned<CommentView>> => {
  const { auth } = op;
  requireGrant(auth, 'comment', id, 'read', 'comment');
  const row = isUuid(id) ? await findComment(op.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw commentNotFound();
  requireCommentTarget(auth, row);
  return versionedComment(row);
});
