import { z } from 'zod';
import { listDocumentsPage } from '@workcell/db';
import { TargetType } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { documentView, type DocumentView, storedTargetType } from './view.js';

export const listDocumentsInput = z.object({ auth: authInput, ...pageInput, targetType: TargetType.optional(), targetId: z.string().max(64).optional() }).strict();

/**
 * `GET /v1/documents`: the workspace's unarchived documents, oldest first, optionally only those of one target type
 * and/or target id (an id that names nothing matches nothing; a target archived since keeps its documents listed).
 * A service account sees only the documents its resource grants cover.
 */
export const listDocuments = defineProcedure(
  'listDocuments',
  listDocumentsInput,
  async (ctx, { auth, cursor, limit, targetType, targetId }): Promise<{ items: DocumentView[]; limit: number; nextCursor: string | null }> => {
    const filter = { targetType: targetType === undefined ? undefined : storedTargetType(targetType), targetId: targetId?.toLowerCase() };
    const onlyIds = grantedIds(auth, 'document');
    const scope = { workspaceId: auth.workspaceId, list: 'listDocuments', filter: { targetType: filter.targetType ?? null, targetId: filter.targetId ?? null } };
    const page = await paginate(ctx.config, scope, { cursor, limit }, async (afterId, take) =>
      targetId !== undefined && !isUuid(targetId) ? [] : listDocumentsPage(ctx.database, auth.workspaceId, { ...filter, onlyIds }, afterId, take),
    );
    return { items: page.items.map(documentView), limit, nextCursor: page.nextCursor };
  },
);
