import { z } from 'zod';
import { findProject, listLifecycleOperationsPage } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { viewerOf } from '../kernel/visibility.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type LifecycleOperationView, lifecycleOperationView } from './lifecycle-view.js';

export const listProjectLifecycleOperationsInput = z.object({ id: z.string().max(64), ...pageInput }).strict();

/** `GET /v1/projects/{id}/lifecycle-operations`: the project's operations in creation order, cursor-paged; another workspace's project is 404. */
export const listProjectLifecycleOperations = defineProcedure(
  'listProjectLifecycleOperations',
  listProjectLifecycleOperationsInput,
  async (op, { id, cursor, limit }): Promise<{ items: LifecycleOperationView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    requireGrant(auth, 'project', id, 'read', 'project');
    const projectId = isUuid(id) ? id.toLowerCase() : null;
    if (projectId === null || !(await findProject(op.database, auth.workspaceId, projectId, viewerOf(auth)))) throw new DomainError('not_found', 'project not found');
    const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listProjectLifecycleOperations', filter: { projectId } }, { cursor, limit }, (afterId, take) =>
      listLifecycleOperationsPage(op.database, auth.workspaceId, projectId, afterId, take),
    );
    return { items: page.items.map(lifecycleOperationView), limit, nextCursor: page.nextCursor };
  },
);
