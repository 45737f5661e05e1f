import { z } from 'zod';
import { listAutomationDefinitionsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { automationDefinitionView, type AutomationDefinitionView } from './view.js';

export const listAutomationDefinitionsInput = z.object({ auth: authInput, ...pageInput, status: z.enum(['draft', 'published']).optional() }).strict();

/** `GET /v1/automation-definitions`: the workspace's unarchived definitions, oldest first, optionally only drafts or only published ones. */
export const listAutomationDefinitions = defineProcedure(
  'listAutomationDefinitions',
  listAutomationDefinitionsInput,
  async (ctx, { auth, cursor, limit, status }): Promise<{ items: AutomationDefinitionView[]; limit: number; nextCursor: string | null }> => {
    const scope = { workspaceId: auth.workspaceId, list: 'listAutomationDefinitions', filter: { status: status ?? null } };
    const published = status === undefined ? undefined : status === 'published';
    const page = await paginate(ctx.config, scope, { cursor, limit }, (afterId, take) => listAutomationDefinitionsPage(ctx.database, auth.workspaceId, { published }, afterId, take));
    return { items: page.items.map(automationDefinitionView), limit, nextCursor: page.nextCursor };
  },
);
