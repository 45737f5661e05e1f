import type { Db } from './database.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Asynchronous project lifecycle operations (issue 6): complete, reopen, archive, restore. The API records an
 * operation (queued) in the transaction that checks the project; the worker runs it. A partial unique index
 * (`project_lifecycle_operations_one_active_key`) allows one queued or running operation per project.
 */

export type LifecycleKind = 'complete' | 'reopen' | 'archive' | 'restore';
export type LifecycleStatus = 'queued' | 'running' | 'succeeded' | 'failed';

const select = {
  id: true,
  workspaceId: true,
  projectId: true,
  kind: true,
  status: true,
  error: true,
  startedAt: true,
  finishedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ProjectLifecycleOperationSelect;

/** `error`: the failed operation's error as stored (jsonb), read as unknown. */
export type LifecycleOperationRecord = Readonly<Omit<Prisma.ProjectLifecycleOperationGetPayload<{ select: typeof select }>, 'error'> & { error: unknown }>;

/** The project's lifecycle state, with its row locked until commit (serializes requests and the worker per project). */
export async function lockProjectLifecycleState(tx: Db, workspaceId: string, projectId: string): Promise<{ revision: number; status: 'active' | 'completed'; archivedAt: Date | null } | null> {
  const rows = await tx.prisma.$queryRaw<{ revision: number; status: 'active' | 'completed'; archived_at: Date | null }[]>`
    SELECT revision, status::text AS status, archived_at FROM projects WHERE workspace_id = ${workspaceId}::uuid AND id = ${projectId}::uuid FOR UPDATE`;
  const row = rows[0];
  return row ? { revision: row.revision, status: row.status, archivedAt: row.archived_at } : null;
}

/** Whether the project has a queued or running operation. */
export async function hasActiveLifecycleOperation(client: Db, workspaceId: string, projectId: string): Promise<boolean> {
  return (await client.prisma.projectLifecycleOperation.count({ where: { workspaceId, projectId, status: { in: ['queued', 'running'] } } })) > 0;
}

export async function insertLifecycleOperation(
  tx: Db,
  input: { workspaceId: string; projectId: string; kind: LifecycleKind; requestedByCredentialId: string | null },
  now: Date,
): Promise<LifecycleOperationRecord> {
  return tx.prisma.projectLifecycleOperation.create({ data: { ...input, status: 'queued', createdAt: now, updatedAt: now }, select });
}

/** Any operation by id (the worker's view: it has no project id). */
export async function findLifecycleOperationById(client: Db, workspaceId: string, id: string): Promise<LifecycleOperationRecord | null> {
  return client.prisma.projectLifecycleOperation.findFirst({ where: { workspaceId, id }, select });
}

/** One operation of the project in the workspace. */
export async function findLifecycleOperation(client: Db, workspaceId: string, projectId: string, id: string): Promise<LifecycleOperationRecord | null> {
  return client.prisma.projectLifecycleOperation.findFirst({ where: { workspaceId, projectId, id }, select });
}

/** One keyset page of the project's operations in id (creation) order. */
export async function listLifecycleOperationsPage(client: Db, workspaceId: string, projectId: string, afterId: string | undefined, take: number): Promise<LifecycleOperationRecord[]> {
  return client.prisma.projectLifecycleOperation.findMany({
    where: { workspaceId, projectId, ...(afterId === undefined ? {} : { id: { gt: afterId } }) },
    orderBy: { id: 'asc' },
    take,
    select,
  });
}

/**
 * Moves an operation to a new status, only from one of `from` (so a finished operation is never reopened).
 * Returns whether it moved.
 */
export async function setLifecycleOperationStatus(
  client: Db,
  workspaceId: string,
  id: string,
  from: readonly LifecycleStatus[],
  change: { status: LifecycleStatus; error?: Prisma.InputJsonValue | null; startedAt?: Date; finishedAt?: Date | null },
  now: Date,
): Promise<boolean> {
  const { error, ...rest } = change;
  const { count } = await client.prisma.projectLifecycleOperation.updateMany({
    where: { workspaceId, id, status: { in: [...from] } },
    data: { ...rest, ...(error === undefined ? {} : { error: error === null ? Prisma.DbNull : error }), updatedAt: now },
  });
  return count === 1;
}

/**
 * Applies a lifecycle transition to the project (revision + 1) when its current state allows it; the state
 * guard and the write are one statement. `state_conflict`: the project is not in a state the transition starts from.
 */
export async function applyProjectLifecycle(tx: Db, workspaceId: string, projectId: string, kind: LifecycleKind, now: Date): Promise<'updated' | 'not_found' | 'state_conflict'> {
  const where = { workspaceId, id: projectId };
  const transitions = {
    complete: { where: { ...where, archivedAt: null, status: 'active' as const }, data: { status: 'completed' as const, completedAt: now } },
    reopen: { where: { ...where, archivedAt: null, status: 'completed' as const }, data: { status: 'active' as const, completedAt: null } },
    archive: { where: { ...where, archivedAt: null }, data: { archivedAt: now } },
    restore: { where: { ...where, archivedAt: { not: null } }, data: { archivedAt: null } },
  } satisfies Record<LifecycleKind, { where: Prisma.ProjectWhereInput; data: Prisma.ProjectUpdateManyMutationInput }>;
  const t = transitions[kind];
  const { count } = await tx.prisma.project.updateMany({ where: t.where, data: { ...t.data, updatedAt: now, revision: { increment: 1 } } });
  if (count === 1) return 'updated';
  return (await tx.prisma.project.count({ where })) === 0 ? 'not_found' : 'state_conflict';
}
