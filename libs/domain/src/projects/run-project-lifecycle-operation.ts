import { z } from 'zod';
import { applyProjectLifecycle, findLifecycleOperationById, findProject, inTransaction, setLifecycleOperationStatus } from '@workcell/db';
import { DomainError, isDomainError } from '../kernel/errors.js';
import { definePlatformProcedure, platformEvents } from '../kernel/procedure.js';
import { type LifecycleErrorView, type LifecycleOperationView, lifecycleOperationView } from './lifecycle-view.js';
import { projectView } from './view.js';

export const runProjectLifecycleOperationInput = z.object({ workspaceId: z.uuid(), operationId: z.uuid(), attempt: z.number().int().min(1), attempts: z.number().int().min(1) }).strict();

const PAST = { complete: 'completed', reopen: 'reopened', archive: 'archived', restore: 'restored' } as const;
const STATUS_OF: Record<string, { status: string; title: string }> = {
  not_found: { status: '404', title: 'Not Found' },
  conflict: { status: '409', title: 'Conflict' },
};

function errorOf(error: unknown): LifecycleErrorView {
  if (isDomainError(error) && STATUS_OF[error.code]) return { code: error.code, detail: error.message, ...STATUS_OF[error.code]! };
  return { code: 'internal_error', detail: 'the operation could not be completed', status: '500', title: 'Internal Server Error' };
}

/**
 * The worker's side of a lifecycle operation (job `projects.lifecycle`). Marks it running, then in one
 * transaction applies the transition to the project (status / completedAt / archivedAt, revision + 1, the
 * `project.<completed|reopened|archived|restored>` event) and marks the operation succeeded. On failure the
 * error is recorded: before the last attempt the operation goes back to queued (still the project's active
 * operation, so nothing else starts in between) and the error is rethrown for BullMQ to retry; after the last
 * attempt, or at once for a domain refusal, it ends failed, with the error, visible through GET. A finished
 * operation is never run again.
 */
export const runProjectLifecycleOperation = definePlatformProcedure('runProjectLifecycleOperation', runProjectLifecycleOperationInput, async (ctx, input): Promise<LifecycleOperationView | null> => {
  const { workspaceId, operationId, attempt, attempts } = input;
  // The worker runs the transition: its events name no actor (the request that asked for it named its caller).
  const events = platformEvents(workspaceId);
  const existing = await findLifecycleOperationById(ctx.database, workspaceId, operationId);
  if (!existing || existing.status === 'succeeded' || existing.status === 'failed') return existing ? lifecycleOperationView(existing) : null;
  if (!(await setLifecycleOperationStatus(ctx.database, workspaceId, operationId, ['queued', 'running'], { status: 'running', ...(existing.startedAt ? {} : { startedAt: ctx.now() }) }, ctx.now()))) {
    // Finished in the meantime (another attempt of the same job ended it): nothing to run.
    const current = await findLifecycleOperationById(ctx.database, workspaceId, operationId);
    return current ? lifecycleOperationView(current) : null;
  }
  try {
    return await inTransaction(ctx.database, async (tx) => {
      const now = ctx.now();
      const outcome = await applyProjectLifecycle(tx, workspaceId, existing.projectId, existing.kind, now);
      if (outcome === 'not_found') throw new DomainError('not_found', 'project not found');
      if (outcome === 'state_conflict') throw new DomainError('conflict', `the project's state no longer allows ${existing.kind}`);
      const project = projectView((await findProject(tx, workspaceId, existing.projectId))!);
      if (!(await setLifecycleOperationStatus(tx, workspaceId, operationId, ['running'], { status: 'succeeded', error: null, finishedAt: now }, now))) {
        throw new Error('the lifecycle operation is no longer running');
      }
      const operation = lifecycleOperationView((await findLifecycleOperationById(tx, workspaceId, operationId))!);
      await events.emit(tx, {
        aggregateType: 'project',
        aggregateId: existing.projectId,
        eventType: `project.${PAST[existing.kind]}`,
        payload: { project: { ...project }, operationId },
        occurredAt: now,
      });
      return operation;
    });
  } catch (error) {
    const failure = errorOf(error);
    const now = ctx.now();
    // A domain refusal (the project is gone, or its state no longer allows the transition) will not change on a
    // retry: the operation ends failed now. Other errors (a lost connection, …) go back to the queue.
    if (attempt < attempts && !isDomainError(error)) {
      await setLifecycleOperationStatus(ctx.database, workspaceId, operationId, ['running'], { status: 'queued', error: { ...failure } }, now);
    } else {
      await inTransaction(ctx.database, async (tx) => {
        if (await setLifecycleOperationStatus(tx, workspaceId, operationId, ['running', 'queued'], { status: 'failed', error: { ...failure }, finishedAt: now }, now)) {
          await events.emit(tx, {
            aggregateType: 'project',
            aggregateId: existing.projectId,
            eventType: 'project.lifecycle_failed',
            payload: { operationId, kind: existing.kind, error: { ...failure } },
            occurredAt: now,
          });
        }
      });
    }
    throw error;
  }
});
