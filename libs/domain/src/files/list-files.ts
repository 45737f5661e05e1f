import { z } from 'zod';
import { listFilesPage } from '@workcell/db';
import { FILE_STATUSES } from '@workcell/registry';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { fileView, type FileView } from './view.js';

export const listFilesInput = z.object({ auth: authInput, ...pageInput, status: z.enum(FILE_STATUSES).optional() }).strict();

/**
 * `GET /v1/files`: the workspace's unarchived files, oldest first, optionally of one status. A service account sees
 * only the files its resource grants cover.
 */
export const listFiles = defineProcedure('listFiles', listFilesInput, async (ctx, { auth, cursor, limit, status }): Promise<{ items: FileView[]; limit: number; nextCursor: string | null }> => {
  const onlyIds = grantedIds(auth, 'file');
  const scope = { workspaceId: auth.workspaceId, list: 'listFiles', filter: { status: status ?? null } };
  const page = await paginate(ctx.config, scope, { cursor, limit }, (afterId, take) => listFilesPage(ctx.database, auth.workspaceId, { status, onlyIds }, afterId, take));
  return { items: page.items.map(fileView), limit, nextCursor: page.nextCursor };
});
