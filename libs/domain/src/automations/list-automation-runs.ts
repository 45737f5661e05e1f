import { z } from 'zod';
import { listAutomationRunsPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { automationRunView, type AutomationRunView } from './view.js';

export const listAutomationRunsInput = z.object({ ...pageInput, definitionId: z.string().max(64).optional(), status: z.enum(['running', 'succeeded', 'failed', 'aborted']).optional() }).strict();

/** `GET /v1/automation-runs`: the workspace's runs in start order, optionally of one definition and/or in one status. */
export const listAutomationRuns = defineProcedure(
  'listAutomationRuns',
  listAutomationRunsInput,
  async (op, { cursor, limit, definitionId, status }): Promise<{ items: AutomationRunView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const definition = definitionId?.toLowerCase();
    const scope = { workspaceId: auth.workspaceId, list: 'listAutomationRuns', filter: { definitionId: definition ?? null, status: status ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      definition !== undefined && !isUuid(definition) ? [] : listAutomationRunsPage(op.database, auth.workspaceId, { definitionId: definition, status }, afterId, take),
    );
    return { items: page.items.map(automationRunView), limit, nextCursor: page.nextCursor };
  },
);
