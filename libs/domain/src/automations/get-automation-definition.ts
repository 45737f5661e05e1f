import { z } from 'zod';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { authInput } from '../kernel/inputs.js';
import { automationDefinitionNotFound, type AutomationDefinitionView, automationIdOf, findAutomationDefinitionOr404, versionedAutomationDefinition } from './view.js';

export const getAutomationDefinitionInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/automation-definitions/{id}`: one definition of the caller's workspace, archived or not. */
export const getAutomationDefinition = defineProcedure('getAutomationDefinition', getAutomationDefinitionInput, async (ctx, { auth, id }): Promise<Versioned<AutomationDefinitionView>> => {
  return versionedAutomationDefinition(await findAutomationDefinitionOr404(ctx.database, auth, automationIdOf(id, automationDefinitionNotFound)));
});
