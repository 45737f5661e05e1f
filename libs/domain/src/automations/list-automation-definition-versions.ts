import { z } from 'zod';
import { listAutomationVersionsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { automationDefinitionNotFound, automationIdOf, automationVersionView, type AutomationVersionView, findAutomationDefinitionOr404 } from './view.js';

export const listAutomationDefinitionVersionsInput = z.object({ auth: authInput, ...pageInput, id: z.string().max(64) }).strict();

/** `GET /v1/automation-definitions/{id}/versions`: the published versions in publication order (archived definitions too). */
export const listAutomationDefinitionVersions = defineProcedure(
  'listAutomationDefinitionVersions',
  listAutomationDefinitionVersionsInput,
  async (ctx, { auth, cursor, limit, id: rawId }): Promise<{ items: AutomationVersionView[]; limit: number; nextCursor: string | null }> => {
    const id = automationIdOf(rawId, automationDefinitionNotFound);
    await findAutomationDefinitionOr404(ctx.database, auth, id);
    const scope = { workspaceId: auth.workspaceId, list: 'listAutomationDefinitionVersions', filter: { id } };
    const page = await paginate(ctx.config, scope, { cursor, limit }, (afterId, take) => listAutomationVersionsPage(ctx.database, auth.workspaceId, id, afterId, take));
    return { items: page.items.map(automationVersionView), limit, nextCursor: page.nextCursor };
  },
);
