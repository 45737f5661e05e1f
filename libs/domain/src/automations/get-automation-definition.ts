import { z } from 'zod';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { automationDefinitionNotFound, type AutomationDefinitionView, automationIdOf, findAutomationDefinitionOr404, versionedAutomationDefinition } from './view.js';

export const getAutomationDefinitionInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/automation-definitions/{id}`: one definition of the caller's workspace, archived or not. */
export const getAutomationDefinition = defineProcedure('getAutomationDefinition', getAutomationDefinitionInput, async (op, { id }): Promise<Versioned<AutomationDefinitionView>> => {
  const { auth } = op;
  return versionedAutomationDefinition(await findAutomationDefinitionOr404(op.database, auth, automationIdOf(id, automationDefinitionNotFound)));
});
