import { z } from 'zod';
import { updateAutomationDefinitionIfRevision } from '@workcell/db';
import { AutomationDefinitionUpdate } from '@workcell/registry';
import { givenAttributes } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import {
  assertFlow,
  assertLive,
  automationDefinitionEventView,
  automationDefinitionNotFound,
  type AutomationDefinitionView,
  automationIdOf,
  type AutomationStep,
  type AutomationTrigger,
  findAutomationDefinitionOr404,
  versionedAutomationDefinition,
} from './view.js';

export const updateAutomationDefinitionInput = z.object({ id: z.string().max(64), ...AutomationDefinitionUpdate.shape }).strict();

/**
 * `PATCH /v1/automation-definitions/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * the draft's name, description, trigger or steps. The resulting flow is validated and its implied scopes
 * required as on create. Published versions stay as they are: the change runs once published. An archived
 * definition is 409 until restored. Writes `automation_definition.updated` in the same transaction.
 */
export const updateAutomationDefinition = defineProcedure('updateAutomationDefinition', updateAutomationDefinitionInput, async (op, input): Promise<Versioned<AutomationDefinitionView>> => {
  const { auth } = op;
  const id = automationIdOf(input.id, automationDefinitionNotFound);
  const given = { name: input.name, description: input.description, trigger: input.trigger, steps: input.steps };
  const changed = givenAttributes(given);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findAutomationDefinitionOr404(tx, auth, id);
    assertLive(current);
    const trigger = (input.trigger ?? current.trigger) as AutomationTrigger;
    const steps = (input.steps ?? current.steps) as AutomationStep[];
    await assertFlow(tx, auth, trigger, steps);
    const outcome = await updateAutomationDefinitionIfRevision(tx, auth.workspaceId, id, expectedRevision(input.expectedVersion), {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.trigger === undefined ? {} : { trigger }),
      ...(input.steps === undefined ? {} : { steps }),
    });
    if (outcome !== 'updated') throw casFailure(outcome, 'automation definition');
    const row = await findAutomationDefinitionOr404(tx, auth, id);
    await op.emit(tx, resourceEvent(op, { type: 'automation_definition', id, action: 'updated', view: automationDefinitionEventView(row), changed, at: now }));
    return versionedAutomationDefinition(row);
  });
});
