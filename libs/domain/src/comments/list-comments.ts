import { z } from 'zod';
import { listCommentsPage } from '@workcell/db';
import { pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { resolveTarget, targetTypeInput } from '../kernel/targets.js';
import { viewerOf } from '../kernel/visibility.js';
import { type CommentView, commentView } from './view.js';

export const listCommentsInput = z.object({ ...pageInput, targetType: targetTypeInput, targetId: z.string().max(64) }).strict();

/**
 * `GET /v1/comments?targetType=&targetId=`: the comments of one target, oldest first. The target is what is read:
 * the type's read scope (403), then a target that is missing, another workspace's, unreadable for a service
 * account or in a project hidden from the caller (sharing) is 404. A service account sees only the comments its
 * `comment` grants cover (in the page's statement, libs/db visibility.ts).
 */
export const listComments = defineProcedure('listComments', listCommentsInput, async (op, input): Promise<{ items: CommentView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const { cursor, limit } = input;
  const target = await resolveTarget(op.database, auth, { type: input.targetType, id: input.targetId });
  const scope = { workspaceId: auth.workspaceId, list: 'listComments', filter: { targetType: target.type, targetId: target.id } };
  const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) =>
    listCommentsPage(op.database, auth.workspaceId, { kind: target.kind, id: target.id }, afterId, take, viewerOf(auth)),
  );
  return { items: page.items.map(commentView), limit, nextCursor: page.nextCursor };
});
