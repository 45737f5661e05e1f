import { z } from 'zod';
import { listFilesPage } from '@workcell/db';
import { FILE_STATUSES } from '@workcell/registry';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { fileView, type FileView } from './view.js';

export const listFilesInput = z.object({ ...pageInput, status: z.enum(FILE_STATUSES).optional() }).strict();

/**
 * `GET /v1/files`: the workspace's unarchived files, oldest first, optionally of one status. A service account sees
 * only the files its resource grants cover.
 */
export const listFiles = defineProcedure('listFiles', listFilesInput, async (op, { cursor, limit, status }): Promise<{ items: FileView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const onlyIds = grantedIds(auth, 'file');
  const scope = { workspaceId: auth.workspaceId, list: 'listFiles', filter: { status: status ?? null } };
  const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listFilesPage(op.database, auth.workspaceId, { status, onlyIds }, afterId, take));
  return { items: page.items.map(fileView), limit, nextCursor: page.nextCursor };
});
