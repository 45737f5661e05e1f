import { z } from 'zod';
import { listAutomationVersionsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { automationDefinitionNotFound, automationIdOf, automationVersionView, type AutomationVersionView, findAutomationDefinitionOr404 } from './view.js';

export const listAutomationDefinitionVersionsInput = z.object({ ...pageInput, id: z.string().max(64) }).strict();

/** `GET /v1/automation-definitions/{id}/versions`: the published versions in publication order (archived definitions too). */
export const listAutomationDefinitionVersions = defineProcedure(
  'listAutomationDefinitionVersions',
  listAutomationDefinitionVersionsInput,
  async (op, { cursor, limit, id: rawId }): Promise<{ items: AutomationVersionView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const id = automationIdOf(rawId, automationDefinitionNotFound);
    await findAutomationDefinitionOr404(op.database, auth, id);
    const scope = { workspaceId: auth.workspaceId, list: 'listAutomationDefinitionVersions', filter: { id } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listAutomationVersionsPage(op.database, auth.workspaceId, id, afterId, take));
    return { items: page.items.map(automationVersionView), limit, nextCursor: page.nextCursor };
  },
);
