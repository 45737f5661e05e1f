import { z } from 'zod';
import { hasActiveLifecycleOperation, insertLifecycleOperation, type LifecycleKind, type LifecycleOperationRecord, lockProjectLifecycleState } from '@workcell/db';
import { requireGrant } from '../kernel/grants.js';
import { requireProjectAccess } from '../kernel/visibility.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { expectedRevisionInput } from '../kernel/if-match.js';
import type { Operation } from '../kernel/procedure.js';

/** One error of the contract's error document, as stored on a failed operation. */
export interface LifecycleErrorView {
  readonly code: string;
  readonly detail: string;
  readonly status: string;
  readonly title: string;
}

/** A lifecycle operation as the registry's AsyncOperation (queued is `pending` there). */
export interface LifecycleOperationView {
  readonly id: string;
  readonly kind: string;
  readonly status: 'pending' | 'running' | 'succeeded' | 'failed';
  readonly resourceType: 'project';
  readonly resourceId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string | null;
  readonly error: LifecycleErrorView | null;
}

function errorView(value: unknown): LifecycleErrorView | null {
  if (typeof value !== 'object' || value === null) return null;
  const e = value as Record<string, unknown>;
  return { code: String(e.code ?? 'internal_error'), detail: String(e.detail ?? ''), status: String(e.status ?? '500'), title: String(e.title ?? 'Internal Server Error') };
}

export function lifecycleOperationView(row: LifecycleOperationRecord): LifecycleOperationView {
  return {
    id: row.id,
    kind: `project.${row.kind}`,
    status: row.status === 'queued' ? 'pending' : row.status,
    resourceType: 'project',
    resourceId: row.projectId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.finishedAt?.toISOString() ?? null,
    error: errorView(row.error),
  };
}

/** Where each transition may start: the project's state (archived wins over active/completed). */
const ALLOWED: Record<LifecycleKind, { from: (s: { status: 'active' | 'completed'; archived: boolean }) => boolean; state: string }> = {
  complete: { from: (s) => !s.archived && s.status === 'active', state: 'is already completed or archived' },
  reopen: { from: (s) => !s.archived && s.status === 'completed', state: 'is not completed, or is archived' },
  archive: { from: (s) => !s.archived, state: 'is already archived' },
  restore: { from: (s) => s.archived, state: 'is not archived' },
};

export const lifecycleRequestInput = z.object({ id: z.string().max(64), expectedRevision: expectedRevisionInput }).strict();

/**
 * Accepts a lifecycle transition: in one transaction (the project row locked), the project must exist in the
 * workspace (404), have the expected revision (412) and be in a state the transition starts from, with no
 * other operation queued or running (409); then the operation is recorded (queued) with its outbox event.
 * The caller enqueues the job after the commit.
 */
export async function requestProjectLifecycle(op: Operation, kind: LifecycleKind, input: z.output<typeof lifecycleRequestInput>): Promise<LifecycleOperationView> {
  const { auth, requestId } = op;
  const { id: rawId, expectedRevision } = input;
  requireGrant(auth, 'project', rawId, 'write', 'project');
  const workspaceId = auth.workspaceId;
  if (!isUuid(rawId)) throw new DomainError('not_found', 'project not found');
  const projectId = rawId.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    const project = await lockProjectLifecycleState(tx, workspaceId, projectId);
    if (!project) throw new DomainError('not_found', 'project not found');
    await requireProjectAccess(tx, auth, projectId, 'write', 'project');
    if (project.revision !== expectedRevision) throw new DomainError('precondition_failed', 'the project has changed since its ETag was read; read it again and decide');
    const rule = ALLOWED[kind];
    if (!rule.from({ status: project.status, archived: project.archivedAt !== null })) throw new DomainError('conflict', `the project ${rule.state}`);
    if (await hasActiveLifecycleOperation(tx, workspaceId, projectId)) throw new DomainError('conflict', 'the project already has a lifecycle operation queued or running; wait for it to finish');
    const operation = lifecycleOperationView(await insertLifecycleOperation(tx, { workspaceId, projectId, kind, requestedByCredentialId: auth.credential.id }, now));
    await op.emit(tx, {
      aggregateType: 'project',
      aggregateId: projectId,
      eventType: 'project.lifecycle_requested',
      payload: { operationId: operation.id, kind, requestId },
      occurredAt: now,
    });
    return operation;
  });
}
