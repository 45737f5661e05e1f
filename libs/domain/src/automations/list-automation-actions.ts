import { z } from 'zod';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { AUTOMATION_ACTION_VIEWS, type AutomationActionView } from './actions.js';

export const listAutomationActionsInput = z.object({ ...pageInput }).strict();

/** `GET /v1/automation-actions`: the static action catalog in catalog order, paged like every list (the cursor names the last action). */
export const listAutomationActions = defineProcedure(
  'listAutomationActions',
  listAutomationActionsInput,
  async (op, { cursor, limit }): Promise<{ items: readonly AutomationActionView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const scope = { workspaceId: auth.workspaceId, list: 'listAutomationActions' };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => {
      const start = afterId === undefined ? 0 : AUTOMATION_ACTION_VIEWS.findIndex((a) => a.id === afterId) + 1;
      return AUTOMATION_ACTION_VIEWS.slice(start, start + take);
    });
    return { items: page.items, limit, nextCursor: page.nextCursor };
  },
);
