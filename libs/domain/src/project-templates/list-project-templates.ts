import { z } from 'zod';
import { listProjectTemplatesPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type ProjectTemplateView, projectTemplateView } from './view.js';

export const listProjectTemplatesInput = z.object({ ...pageInput }).strict();

/** `GET /v1/project-templates`: the workspace's unarchived templates, oldest first (a service account: its granted ones). */
export const listProjectTemplates = defineProcedure(
  'listProjectTemplates',
  listProjectTemplatesInput,
  async (op, { cursor, limit }): Promise<{ items: ProjectTemplateView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const onlyIds = grantedIds(auth, 'project_template');
    const scope = { workspaceId: auth.workspaceId, list: 'listProjectTemplates', filter: {} };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listProjectTemplatesPage(op.database, auth.workspaceId, afterId, take, onlyIds));
    return { items: page.items.map(projectTemplateView), limit, nextCursor: page.nextCursor };
  },
);
