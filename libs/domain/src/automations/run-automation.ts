import {
  advanceAutomationRun,
  type AutomationRunRecord,
  endAutomationRun,
  findAutomationDefinition,
  findAutomationRun,
  findAutomationVersion,
  findOutboxEvent,
  inTransaction,
  loadCredential,
  lockAutomationRun,
  staleAutomationRuns,
  type UnpublishedEvent,
} from '@workcell/db';
import { eventSpec } from '../events/catalog.js';
import { mayReceiveEvent } from '../events/receivable.js';
import { authorityOf } from '../identity/authenticate-credential.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { DomainError, isDomainError } from '../kernel/errors.js';
import { issuesOf, operationOf, platformEvents, type ProcedureContext } from '../kernel/procedure.js';
import { assertScopes } from '../kernel/scopes.js';
import { automationAction } from './actions.js';
import { type AutomationStep, automationRunEventView, resolveTemplates } from './view.js';

/**
 * The worker's side of automations (docs/automations.md). A run applies its version's steps in order, each in one
 * transaction that holds the run's row lock, checks the run is still running at that step, applies the action
 * (the same domain procedure as the API, with the owner's authority as it is now, its statements joined to the
 * transaction) and moves the run's cursor by compare-and-set. So a step commits together with its cursor or not at
 * all: a worker that dies mid-step leaves it to the retry, two workers never both apply it (the second waits for
 * the lock, then finds the cursor moved), and an abort (which takes the same lock) is never followed by a step.
 */

/** Where a run's continuations go: the worker enqueues `automations.run` for the step after a delay. */
export interface AutomationScheduler {
  /** Enqueues the run's job for `step` (a deterministic id per run and step), after `delayMs`. */
  resume(job: { workspaceId: string; runId: string; step: number }, delayMs: number): Promise<void>;
}

type Failure = { readonly code: string; readonly message: string };

const ENDED = { succeeded: 'succeeded', failed: 'failed' } as const;

/** Ends a running run and writes its event (nothing when it had ended already: aborted meanwhile, or a duplicate). */
async function end(ctx: ProcedureContext, run: AutomationRunRecord, status: 'succeeded' | 'failed', error: Failure | null): Promise<void> {
  const now = ctx.now();
  // The run's own events name it as their cause, so they never trigger its definition again.
  const events = platformEvents(run.workspaceId, causeOf(run));
  await inTransaction(ctx.database, async (tx) => {
    const ended = await endAutomationRun(tx, run.workspaceId, run.id, { status, error }, now);
    if (!ended) return;
    await events.emit(tx, {
      aggregateType: 'automation_run',
      aggregateId: run.id,
      eventType: `automation_run.${ENDED[status]}`,
      payload: { automationRun: automationRunEventView(ended) },
      occurredAt: now,
    });
  });
}

/** What a run's events record as their cause (docs/automations.md: loops). */
function causeOf(run: AutomationRunRecord) {
  return { definitionId: run.definitionId, runId: run.id, depth: run.depth };
}

/** The owner's authority now, or why it cannot act (a revoked, expired or inactive owner never acts). */
async function ownerAuthority(ctx: ProcedureContext, workspaceId: string, ownerCredentialId: string | null): Promise<V1AuthContext | Failure> {
  const credential = ownerCredentialId === null ? null : await loadCredential(ctx.database, workspaceId, ownerCredentialId);
  const authority = credential ? await authorityOf(ctx.database, credential, ctx.now()) : null;
  if (!authority?.ok) return { code: 'owner_unauthorized', message: `the definition's owner credential cannot act: ${authority ? authority.reason : 'it no longer exists'}` };
  return authority.context;
}

export type RunOutcome = 'skipped' | 'waiting' | 'succeeded' | 'failed';

/**
 * The `automations.run` job: continues the run from `step` (its cursor when the job was enqueued). A run that is not
 * running, or whose cursor another job moved past `step`, is left alone. When the cursor is one short of `step`
 * and that step is a delay, the delay's commit was lost after its continuation was enqueued: the wait has passed,
 * so the delay is completed first. A domain refusal ends the run failed with its code (retrying cannot help); any
 * other error is rethrown for the queue to retry (the step rolled back), and the last attempt ends it failed.
 */
export async function runAutomation(
  ctx: ProcedureContext,
  scheduler: AutomationScheduler,
  job: { workspaceId: string; runId: string; step: number },
  attempt: { attempt: number; attempts: number },
): Promise<{ outcome: RunOutcome }> {
  const { workspaceId, runId } = job;
  const run = await findAutomationRun(ctx.database, workspaceId, runId);
  if (!run || run.status !== 'running') return { outcome: 'skipped' };
  // The last attempt's transient failure ends the run below; an attempt before it is retried by the queue.
  try {
    const version = await findAutomationVersion(ctx.database, workspaceId, run.definitionId, run.versionNumber);
    const definition = await findAutomationDefinition(ctx.database, workspaceId, run.definitionId);
    const event = await findOutboxEvent(ctx.database, workspaceId, run.eventId);
    if (!version || !definition || !event) return await fail(ctx, run, { code: 'not_found', message: "the run's version or triggering event no longer exists" });
    const steps = version.body.steps as AutomationStep[];
    const cursor = run.stepsCompleted;
    // One short of `step` with a delay there: the delay's commit was lost after its continuation was enqueued.
    const lostDelay = cursor === job.step - 1 && steps[cursor]?.actionId === 'flow.delay';
    // Past `step`: this job's earlier attempt (a worker that died mid-run) got that far; it goes on from there,
    // unless the run is waiting out a delay, whose continuation resumes it.
    const waiting = run.resumeAt !== null && new Date(run.resumeAt) > ctx.now();
    if (!lostDelay && (cursor < job.step || (cursor > job.step && waiting))) return { outcome: 'skipped' };
    const owner = await ownerAuthority(ctx, workspaceId, definition.ownerCredentialId);
    if (!('workspaceId' in owner)) return await fail(ctx, run, owner);
    const spec = eventSpec(event.eventType);
    if (!spec || !(await mayReceiveEvent(ctx.database, owner, spec, event)))
      return await fail(ctx, run, { code: 'owner_unauthorized', message: "the definition's owner may no longer receive the triggering event" });
    for (let i = cursor; i < steps.length; i++) {
      const result = await applyStep(ctx, scheduler, run, owner, event, steps, i, job.step);
      if (result !== 'applied') return { outcome: result };
    }
    await end(ctx, run, 'succeeded', null);
    return { outcome: 'succeeded' };
  } catch (error) {
    if (isDomainError(error)) return fail(ctx, run, { code: error.code, message: error.message });
    if (attempt.attempt < attempt.attempts) throw error;
    return fail(ctx, run, { code: 'internal_error', message: 'the step failed on every attempt' });
  }
}

async function fail(ctx: ProcedureContext, run: AutomationRunRecord, error: Failure): Promise<{ outcome: 'failed' }> {
  await end(ctx, run, 'failed', error);
  return { outcome: 'failed' };
}

/**
 * One step in its transaction. A delay step completes at once unless this job was started for the step after it
 * (`resumedAt`), which means its wait is over; otherwise its continuation is enqueued before the commit (a commit
 * lost after that is completed by the continuation, see runAutomation). 'stale' when the run was aborted or another
 * job moved the cursor.
 */
async function applyStep(
  ctx: ProcedureContext,
  scheduler: AutomationScheduler,
  run: AutomationRunRecord,
  owner: V1AuthContext,
  event: UnpublishedEvent,
  steps: readonly AutomationStep[],
  index: number,
  resumedAt: number,
): Promise<'applied' | 'waiting' | 'skipped'> {
  const step = steps[index]!;
  const action = automationAction(step.actionId);
  if (!action) throw new Error(`unknown action ${step.actionId}`);
  // The owner's scopes now: a flow does nothing its owner could no longer do through the API.
  assertScopes(owner.effectiveScopes, action.requiredScopes);
  const parsed = action.input.safeParse(resolveTemplates(step.input, { id: event.id, type: event.eventType, data: event.payload }));
  if (!parsed.success) {
    const issue = issuesOf(parsed.error)[0];
    throw new DomainError('validation_failed', `step ${index}: the input is not valid once resolved${issue ? ` (${issue.pointer || '/'}: ${issue.message})` : ''}`);
  }
  const now = ctx.now();
  const { workspaceId, id: runId } = run;
  return inTransaction(ctx.database, async (tx) => {
    const locked = await lockAutomationRun(tx, workspaceId, runId);
    if (!locked || locked.status !== 'running' || locked.stepsCompleted !== index) return 'skipped' as const;
    // A delay this job was enqueued to end is over; otherwise the action runs (a delay asks for its wait).
    const elapsedDelay = step.actionId === 'flow.delay' && index === resumedAt - 1;
    // The step acts as the owner, in this transaction, with the run as the cause of its events.
    const stepOp = operationOf({ ...ctx, database: tx }, owner, null, { cause: causeOf(run) });
    const outcome = elapsedDelay ? null : await action.run(stepOp, parsed.data as Record<string, unknown>);
    const resumeAt = outcome === null ? null : new Date(now.getTime() + outcome.delaySeconds * 1000);
    if (!(await advanceAutomationRun(tx, workspaceId, runId, index, resumeAt, now))) return 'skipped' as const;
    if (outcome !== null) await scheduler.resume({ workspaceId, runId, step: index + 1 }, outcome.delaySeconds * 1000);
    return outcome === null ? ('applied' as const) : ('waiting' as const);
  });
}

/**
 * Enqueues again the running runs untouched for a minute that are not waiting out a delay: their job was lost (a
 * crash between the relay's commit and the enqueue). The job id is deterministic, so a job that still exists is
 * not enqueued twice. Run by the worker's periodic `automations.revive`.
 */
export async function reviveStaleAutomationRuns(ctx: ProcedureContext, scheduler: AutomationScheduler): Promise<number> {
  const stale = await staleAutomationRuns(ctx.database, new Date(ctx.now().getTime() - 60_000), 200);
  await Promise.all(stale.map((r) => scheduler.resume({ workspaceId: r.workspaceId, runId: r.id, step: r.stepsCompleted }, 0)));
  return stale.length;
}
