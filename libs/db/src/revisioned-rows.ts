import type { CasOutcome } from './transactions.js';

/**
 * The columns a revisioned family's select ends with, in this order: Prisma's select of `{ id: true, …,
 * ...revisionedColumns }` is the family's record, so its type is derived from the select (`GetPayload`).
 */
export const revisionedColumns = { revision: true, archivedAt: true, createdAt: true, updatedAt: true } as const;

/** The fields revisionedColumns reads: what a record a family reads with raw SQL ends with. */
export interface RevisionedFields {
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * What the shared writes below need of a Prisma model delegate (`tx.product`, `tx.document`, …) whose table has
 * `workspace_id`, `id`, `revision` and `archived_at`: the families' compare-and-set and archive flag are one shape.
 */
export interface RevisionedRows {
  updateMany(args: { where: object; data: object }): PromiseLike<{ count: number }>;
  count(args: { where: object }): PromiseLike<number>;
}

/**
 * Compare-and-set of a row's attributes: one `UPDATE … WHERE revision = $expected`; a miss is told apart by a count.
 * `scope` narrows which rows count as this one (a member's own appointment: `{ memberId, archivedAt: null }`).
 */
export async function updateIfRevision(rows: RevisionedRows, workspaceId: string, id: string, expectedRevision: number, data: object, scope: object = {}): Promise<CasOutcome> {
  const where = { ...scope, workspaceId, id };
  const { count } = await rows.updateMany({ where: { ...where, revision: expectedRevision }, data: { ...data, revision: { increment: 1 } } });
  if (count === 1) return 'updated';
  return (await rows.count({ where })) > 0 ? 'version_conflict' : 'not_found';
}

/**
 * A last-writer-wins write of a row's attributes (no precondition) and a new revision; false when the row is missing
 * or out of `scope` (a call note: `{ contactId: { not: null } }`).
 */
export async function updateAttributes(rows: RevisionedRows, workspaceId: string, id: string, data: object, scope: object = {}): Promise<boolean> {
  const { count } = await rows.updateMany({ where: { workspaceId, id, ...scope }, data: { ...data, revision: { increment: 1 } } });
  return count === 1;
}

/** Sets or clears `archived_at` (a new revision); false when the row is missing, out of `scope` or already in that state. */
export async function setArchivedAt(rows: RevisionedRows, workspaceId: string, id: string, archivedAt: Date | null, scope: object = {}): Promise<boolean> {
  const { count } = await rows.updateMany({ where: { ...scope, workspaceId, id, archivedAt: archivedAt === null ? { not: null } : null }, data: { archivedAt, revision: { increment: 1 } } });
  return count === 1;
}

/** Outcome of an If-Match write with a state guard: a stale revision wins over a state conflict (the caller must re-read first). */
export type GuardedOutcome = CasOutcome | 'state_conflict';

/** Why a guarded write (`UPDATE … WHERE revision = $expected AND <state>`) did not apply: the row is gone, its revision moved on, or it is in the wrong state. */
export async function guardedMiss(
  rows: { findFirst(args: { where: object; select: { revision: true } }): PromiseLike<{ revision: number } | null> },
  workspaceId: string,
  id: string,
  expectedRevision: number,
): Promise<GuardedOutcome> {
  const current = await rows.findFirst({ where: { workspaceId, id }, select: { revision: true } });
  return current === null ? 'not_found' : current.revision !== expectedRevision ? 'version_conflict' : 'state_conflict';
}
