import { z } from 'zod';
import { listListsPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { listKindInput, type ListView, listView, storedListKind } from './view.js';

export const listListsInput = z.object({ ...pageInput, kind: listKindInput.optional() }).strict();

/** `GET /v1/lists`: the workspace's unarchived lists, oldest first, optionally of one kind. */
export const listLists = defineProcedure('listLists', listListsInput, async (op, { cursor, limit, kind }): Promise<{ items: ListView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const scope = { workspaceId: auth.workspaceId, list: 'listLists', filter: { kind: kind ?? null } };
  const filter = { kind: kind === undefined ? undefined : storedListKind(kind) };
  const onlyIds = grantedIds(auth, 'list');
  const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => listListsPage(op.database, auth.workspaceId, { ...filter, onlyIds }, afterId, take));
  return { items: page.items.map(listView), limit, nextCursor: page.nextCursor };
});
