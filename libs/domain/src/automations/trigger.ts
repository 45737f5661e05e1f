import type { NewAutomationRun, TriggerableAutomation, UnpublishedEvent } from '@workcell/db';
import { type AutomationTrigger, valueAt } from './view.js';

/**
 * How deep a chain of automations may go: a run's writes carry its depth, a run they trigger is one deeper, and a
 * trigger that would start a run deeper than this is recorded as a failed run (`loop_bound`) instead.
 */
export const MAX_AUTOMATION_DEPTH = 5;

/** Whether the event matches the trigger: its type, and every condition equal to the payload's value at its dot path. */
export function matchesTrigger(trigger: AutomationTrigger, event: Pick<UnpublishedEvent, 'eventType' | 'payload'>): boolean {
  if (trigger.eventType !== event.eventType) return false;
  return Object.entries(trigger.conditions ?? {}).every(([path, expected]) => {
    const actual = valueAt(event.payload, path);
    return (actual === undefined ? null : actual) === expected;
  });
}

/**
 * The runs a batch of events starts (the relay inserts them, once per definition and event, in the transaction that
 * marks the events published): every published, unarchived definition of the event's workspace whose trigger
 * matches. An event an automation's run wrote never starts that same definition again (its own writes cannot
 * retrigger it); past MAX_AUTOMATION_DEPTH the run is recorded failed with `loop_bound` and does nothing.
 */
export function automationRunsFor(events: readonly UnpublishedEvent[], automations: readonly TriggerableAutomation[]): NewAutomationRun[] {
  const runs: NewAutomationRun[] = [];
  for (const event of events) {
    for (const a of automations) {
      if (a.workspaceId !== event.workspaceId || a.definitionId === event.causedByDefinitionId) continue;
      if (!matchesTrigger(a.trigger as AutomationTrigger, event)) continue;
      const depth = (event.automationDepth ?? 0) + 1;
      const error = depth > MAX_AUTOMATION_DEPTH ? { code: 'loop_bound', message: `the chain of automations reached its bound of ${MAX_AUTOMATION_DEPTH}; this run was not started` } : null;
      runs.push({ workspaceId: a.workspaceId, definitionId: a.definitionId, versionId: a.versionId, versionNumber: a.versionNumber, eventId: event.id, eventType: event.eventType, depth, error });
    }
  }
  return runs;
}
