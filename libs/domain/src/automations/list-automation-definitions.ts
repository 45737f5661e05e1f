import { z } from 'zod';
import { listAutomationDefinitionsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { automationDefinitionView, type AutomationDefinitionView } from './view.js';

export const listAutomationDefinitionsInput = z.object({ ...pageInput, status: z.enum(['draft', 'published']).optional() }).strict();

/** `GET /v1/automation-definitions`: the workspace's unarchived definitions, oldest first, optionally only drafts or only published ones. */
export const listAutomationDefinitions = defineProcedure(
  'listAutomationDefinitions',
  listAutomationDefinitionsInput,
  async (op, { cursor, limit, status }): Promise<{ items: AutomationDefinitionView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const scope = { workspaceId: auth.workspaceId, list: 'listAutomationDefinitions', filter: { status: status ?? null } };
    const published = status === undefined ? undefined : status === 'published';
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listAutomationDefinitionsPage(op.database, auth.workspaceId, { published }, afterId, take));
    return { items: page.items.map(automationDefinitionView), limit, nextCursor: page.nextCursor };
  },
);
