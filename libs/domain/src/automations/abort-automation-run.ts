import { z } from 'zod';
import { endAutomationRun, lockAutomationRun } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { automationIdOf, automationRunEventView, automationRunNotFound } from './view.js';

export const abortAutomationRunInput = z.object({ id: z.string().max(64) }).strict();

/** The AsyncOperation an abort answers (202): the abort is done in the request, so it has succeeded. */
export type AutomationAbortOperationView = {
  readonly id: string;
  readonly kind: 'automation-run.abort';
  readonly status: 'succeeded';
  readonly resourceType: 'automation-runs';
  readonly resourceId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string;
  readonly error: null;
};

/**
 * `POST /v1/automation-runs/{id}/abort` (automations:run, 202): marks a running run aborted, holding the run's row
 * lock, which every step's transaction takes too and in which it checks the run is still running: a step either
 * committed before the abort or never commits. A run that has ended is 409 automation_run_not_running. Writes
 * `automation_run.aborted` in the same transaction (which completes a held idempotency key).
 */
export const abortAutomationRun = defineProcedure('abortAutomationRun', abortAutomationRunInput, async (op, { id: rawId }): Promise<AutomationAbortOperationView> => {
  const { auth, requestId } = op;
  const id = automationIdOf(rawId, automationRunNotFound);
  const now = op.now();
  return op.transaction(async (tx) => {
    const run = await lockAutomationRun(tx, auth.workspaceId, id);
    if (!run) throw automationRunNotFound();
    if (run.status !== 'running') throw new DomainError('automation_run_not_running', `the automation run has ended (${run.status}); only a running run can be aborted`, [], { status: run.status });
    const ended = (await endAutomationRun(tx, auth.workspaceId, id, { status: 'aborted', error: null, abortedByCredentialId: auth.credential.id }, now))!;
    const when = now.toISOString();
    const result: AutomationAbortOperationView = {
      id,
      kind: 'automation-run.abort',
      status: 'succeeded',
      resourceType: 'automation-runs',
      resourceId: id,
      createdAt: when,
      updatedAt: when,
      completedAt: when,
      error: null,
    };
    await op.emit(tx, {
      aggregateType: 'automation_run',
      aggregateId: id,
      eventType: 'automation_run.aborted',
      payload: { automationRun: automationRunEventView(ended), requestId },
      occurredAt: now,
      result,
    });
    return result;
  });
});
