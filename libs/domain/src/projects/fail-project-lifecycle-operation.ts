import { z } from 'zod';
import { appendOutboxEvent, findLifecycleOperationById, inTransaction, setLifecycleOperationStatus } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';

export const failProjectLifecycleOperationInput = z.object({ workspaceId: z.uuid(), operationId: z.uuid(), detail: z.string().max(500) }).strict();

/**
 * Ends a still-queued operation as failed (`enqueue_failed`, 503) when its job could not be enqueued after the
 * request committed: the operation is never left queued with no job to run it, and the project is free for
 * a new request. Returns whether it was marked.
 */
export const failProjectLifecycleOperation = defineProcedure('failProjectLifecycleOperation', failProjectLifecycleOperationInput, async (ctx, { workspaceId, operationId, detail }): Promise<boolean> => {
  const now = ctx.now();
  const error = { code: 'enqueue_failed', detail, status: '503', title: 'Service Unavailable' };
  return inTransaction(ctx.database, async (tx) => {
    const operation = await findLifecycleOperationById(tx, workspaceId, operationId);
    if (!operation || !(await setLifecycleOperationStatus(tx, workspaceId, operationId, ['queued'], { status: 'failed', error, finishedAt: now }, now))) return false;
    await appendOutboxEvent(tx, { workspaceId, aggregateType: 'project', aggregateId: operation.projectId, eventType: 'project.lifecycle_failed', payload: { operationId, kind: operation.kind, error }, occurredAt: now });
    return true;
  });
});
