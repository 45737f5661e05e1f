import { z } from 'zod';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { AUTOMATION_ACTION_VIEWS, type AutomationActionView } from './actions.js';

export const listAutomationActionsInput = z.object({ auth: authInput, ...pageInput }).strict();

/** `GET /v1/automation-actions`: the static action catalog, one page (it is a handful of entries; no cursor). */
export const listAutomationActions = defineProcedure('listAutomationActions', listAutomationActionsInput, async (_ctx, { limit }): Promise<{ items: readonly AutomationActionView[]; limit: number; nextCursor: null }> => {
  return { items: AUTOMATION_ACTION_VIEWS, limit, nextCursor: null };
});
