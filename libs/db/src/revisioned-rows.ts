import type { CasOutcome } from './transactions.js';

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

/** Sets or clears `archived_at` (a new revision); false when the row is missing, out of `scope` or already in that state. */
export async function setArchivedAt(rows: RevisionedRows, workspaceId: string, id: string, archivedAt: Date | null, scope: object = {}): Promise<boolean> {
  const { count } = await rows.updateMany({ where: { ...scope, workspaceId, id, archivedAt: archivedAt === null ? { not: null } : null }, data: { archivedAt, revision: { increment: 1 } } });
  return count === 1;
}
