import { z } from 'zod';
import { insertAutomationDefinition } from '@workcell/db';
import { AutomationDefinitionCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertFlow, automationDefinitionEventView, type AutomationDefinitionView, type AutomationStep, type AutomationTrigger, versionedAutomationDefinition } from './view.js';

export const createAutomationDefinitionInput = z.object({ ...AutomationDefinitionCreate.shape }).strict();

/**
 * `POST /v1/automation-definitions`: a new draft (revision 1, never published: it triggers nothing yet). The flow
 * is validated (400 with pointers) and the caller needs every scope it implies (403 insufficient_scope). Writes
 * `automation_definition.created` in the same transaction, which also completes a held idempotency key.
 */
export const createAutomationDefinition = defineProcedure('createAutomationDefinition', createAutomationDefinitionInput, async (op, input): Promise<Versioned<AutomationDefinitionView>> => {
  const { auth } = op;
  const trigger = input.trigger as AutomationTrigger;
  const steps = input.steps as AutomationStep[];
  const now = op.now();
  return op.transaction(async (tx) => {
    await assertFlow(tx, auth, trigger, steps);
    const row = await insertAutomationDefinition(tx, auth.workspaceId, { name: input.name, description: input.description ?? null, trigger, steps });
    const result = versionedAutomationDefinition(row);
    await op.emit(tx, resourceEvent(op, { type: 'automation_definition', id: row.id, action: 'created', view: automationDefinitionEventView(row), at: now, result }));
    return result;
  });
});
