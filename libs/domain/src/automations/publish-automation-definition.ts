import { z } from 'zod';
import { findAutomationDefinition, publishAutomationDefinition as publishDraft } from '@workcell/db';
import { AutomationPublish } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';

import {
  assertFlow,
  assertLive,
  automationDefinitionEventView,
  automationDefinitionNotFound,
  automationIdOf,
  type AutomationStep,
  type AutomationTrigger,
  automationVersionView,
  type AutomationVersionView,
  findAutomationDefinitionOr404,
} from './view.js';

export const publishAutomationDefinitionInput = z.object({ id: z.string().max(64), ...AutomationPublish.shape }).strict();

/**
 * `POST /v1/automation-definitions/{id}/publish` (201): compare-and-set on the definition's version. One statement
 * bumps the definition (version, publishedVersion, owner) and inserts the immutable version previous + 1 from the
 * row it updated, so of two publishes at one version exactly one makes a version; the other finds the revision
 * moved and is 409 version_conflict. The publishing credential must hold every scope the flow implies (it becomes
 * the owner, whose authority the runs use). Writes `automation_definition.published` in the same transaction.
 */
export const publishAutomationDefinition = defineProcedure('publishAutomationDefinition', publishAutomationDefinitionInput, async (op, input): Promise<AutomationVersionView> => {
  const { auth, requestId } = op;
  const id = automationIdOf(input.id, automationDefinitionNotFound);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findAutomationDefinitionOr404(tx, auth, id);
    assertLive(current);
    await assertFlow(tx, auth, current.trigger as AutomationTrigger, current.steps as AutomationStep[]);
    const version = await publishDraft(tx, auth.workspaceId, id, expectedRevision(input.expectedVersion), { credentialId: auth.credential.id, note: input.note ?? null }, now);
    if (version === null) {
      const after = await findAutomationDefinition(tx, auth.workspaceId, id);
      if (after !== null) assertLive(after);
      throw casFailure(after === null ? 'not_found' : 'version_conflict', 'automation definition');
    }
    const result = automationVersionView(version);
    const row = (await findAutomationDefinition(tx, auth.workspaceId, id))!;
    await op.emit(tx, {
      aggregateType: 'automation_definition',
      aggregateId: id,
      eventType: 'automation_definition.published',
      payload: { automationDefinition: automationDefinitionEventView(row), versionNumber: version.number, requestId },
      occurredAt: now,
      result,
    });
    return result;
  });
});
