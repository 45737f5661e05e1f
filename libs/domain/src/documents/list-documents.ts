import { z } from 'zod';
import { listDocumentsPage } from '@workcell/db';
import { TargetType } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { documentView, type DocumentView, storedTargetType } from './view.js';

export const listDocumentsInput = z.object({ ...pageInput, targetType: TargetType.optional(), targetId: z.string().max(64).optional() }).strict();

/**
 * `GET /v1/documents`: the workspace's unarchived documents, oldest first, optionally only those of one target type
 * and/or target id (an id that names nothing matches nothing; a target archived since keeps its documents listed).
 * Only the documents the caller may see, filtered in the page's statement (libs/db visibility.ts): a service
 * account's resource grants, and the sharing of the target's project.
 */
export const listDocuments = defineProcedure(
  'listDocuments',
  listDocumentsInput,
  async (op, { cursor, limit, targetType, targetId }): Promise<{ items: DocumentView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const filter = { targetType: targetType === undefined ? undefined : storedTargetType(targetType), targetId: targetId?.toLowerCase() };
    const scope = { workspaceId: auth.workspaceId, list: 'listDocuments', filter: { targetType: filter.targetType ?? null, targetId: filter.targetId ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      targetId !== undefined && !isUuid(targetId) ? [] : listDocumentsPage(op.database, auth.workspaceId, filter, afterId, take, viewerOf(auth)),
    );
    return { items: page.items.map(documentView), limit, nextCursor: page.nextCursor };
  },
);
