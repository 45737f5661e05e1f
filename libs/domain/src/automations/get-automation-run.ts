import { z } from 'zod';
import { findAutomationRun } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';

import { automationIdOf, automationRunNotFound, automationRunView, type AutomationRunView } from './view.js';

export const getAutomationRunInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/automation-runs/{id}`: one run of the caller's workspace. */
export const getAutomationRun = defineProcedure('getAutomationRun', getAutomationRunInput, async (op, { id }): Promise<AutomationRunView> => {
  const { auth } = op;
  const row = await findAutomationRun(op.database, auth.workspaceId, automationIdOf(id, automationRunNotFound));
  if (!row) throw automationRunNotFound();
  return automationRunView(row);
});
