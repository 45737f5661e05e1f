import { z } from 'zod';
import { findAutomationRun } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput } from '../kernel/inputs.js';
import { automationIdOf, automationRunNotFound, automationRunView, type AutomationRunView } from './view.js';

export const getAutomationRunInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/automation-runs/{id}`: one run of the caller's workspace. */
export const getAutomationRun = defineProcedure('getAutomationRun', getAutomationRunInput, async (ctx, { auth, id }): Promise<AutomationRunView> => {
  const row = await findAutomationRun(ctx.database, auth.workspaceId, automationIdOf(id, automationRunNotFound));
  if (!row) throw automationRunNotFound();
  return automationRunView(row);
});
