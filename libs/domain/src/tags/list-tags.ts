import { z } from 'zod';
import { listTagsPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type TagView, tagView } from './view.js';

export const listTagsInput = z.object({ ...pageInput }).strict();

/** `GET /v1/tags`: the workspace's unarchived tags, oldest first. */
export const listTags = defineProcedure('listTags', listTagsInput, async (op, { cursor, limit }): Promise<{ items: TagView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const scope = { workspaceId: auth.workspaceId, list: 'listTags', filter: {} };
  const onlyIds = grantedIds(auth, 'tag');
  const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => listTagsPage(op.database, auth.workspaceId, afterId, take, onlyIds));
  return { items: page.items.map(tagView), limit, nextCursor: page.nextCursor };
});
