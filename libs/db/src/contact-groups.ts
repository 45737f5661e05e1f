import { pageIds } from './keyset.js';
import type { Tx } from './credentials.js';
import { type CasOutcome, type Client, clientOf } from './transactions.js';

/**
 * Contact groups: a tree per workspace (`parent_id`). Archive never deletes (`archived_at`); reads by id
 * see archived groups (so they can be restored), lists leave them out. Every query is scoped by the
 * workspace id.
 *
 * Re-parenting must never create a cycle, also under concurrent moves (A under B while B moves under A):
 * every write of `parent_id` first takes the workspace's contact-group hierarchy lock (a transaction-scoped
 * advisory lock), so the cycle check and the write of one move run before or after another move's, never
 * interleaved, and the check reads the hierarchy as committed by the previous move (READ COMMITTED takes a
 * new snapshot per statement).
 */

export interface ContactGroupRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Root first; empty for a root group. */
  readonly ancestorIds: readonly string[];
}

const select = {
  id: true,
  workspaceId: true,
  name: true,
  parentId: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

type Row = Omit<ContactGroupRecord, 'ancestorIds'>;

/** Longest ancestor chain followed; a deeper (or, by corruption, cyclic) chain is cut here. */
const MAX_DEPTH = 1000;

/** The ancestor ids (root first) of each given group, by group id. */
export async function contactGroupAncestors(client: Client, workspaceId: string, ids: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return result;
  const rows = await clientOf(client).$queryRaw<{ start_id: string; id: string }[]>`
    WITH RECURSIVE chain(start_id, id, parent_id, depth) AS (
      SELECT g.id, g.id, g.parent_id, 0 FROM contact_groups g WHERE g.workspace_id = ${workspaceId}::uuid AND g.id = ANY(${[...ids]}::uuid[])
      UNION ALL
      SELECT c.start_id, p.id, p.parent_id, c.depth + 1
        FROM chain c JOIN contact_groups p ON p.workspace_id = ${workspaceId}::uuid AND p.id = c.parent_id
       WHERE c.depth < ${MAX_DEPTH}
    )
    SELECT start_id::text AS start_id, id::text AS id FROM chain WHERE depth > 0 ORDER BY start_id, depth DESC`;
  for (const row of rows) result.get(row.start_id)?.push(row.id);
  return result;
}

async function withAncestors(client: Client, workspaceId: string, rows: readonly Row[]): Promise<ContactGroupRecord[]> {
  const ancestors = await contactGroupAncestors(client, workspaceId, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, ancestorIds: ancestors.get(r.id) ?? [] }));
}

/** One group of the workspace, archived or not. */
export async function findContactGroup(client: Client, workspaceId: string, id: string): Promise<ContactGroupRecord | null> {
  const row = await clientOf(client).contactGroup.findFirst({ where: { workspaceId, id }, select });
  return row ? ((await withAncestors(client, workspaceId, [row]))[0] ?? null) : null;
}

export interface ContactGroupFilter {
  /** Only these ids (a service account's resource grants); absent or null: every row. */
  readonly onlyIds?: readonly string[] | null;
  readonly parentId?: string | undefined;
}

/** One keyset page of the workspace's unarchived groups in id order. */
export async function listContactGroupsPage(
  client: Client,
  workspaceId: string,
  filter: ContactGroupFilter,
  afterId: string | undefined,
  take: number,
): Promise<ContactGroupRecord[]> {
  const rows = await clientOf(client).contactGroup.findMany({
    where: {
      workspaceId,
      archivedAt: null,
      ...(filter.parentId === undefined ? {} : { parentId: filter.parentId }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select,
  });
  return withAncestors(client, workspaceId, rows);
}

/** Of the given ids (UUIDs), those naming an unarchived group of the workspace. */
export async function existingContactGroupIds(client: Client, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await clientOf(client).contactGroup.findMany({ where: { workspaceId, id: { in: [...ids] }, archivedAt: null }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** Serialises every change of the workspace's group hierarchy until the transaction ends. */
export async function lockContactGroupHierarchy(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`workcell:contact-groups:${workspaceId}`}::text, 0))`;
}

export async function insertContactGroup(tx: Tx, workspaceId: string, input: { name: string; parentId: string | null }): Promise<ContactGroupRecord> {
  const row = await tx.contactGroup.create({ data: { workspaceId, name: input.name, parentId: input.parentId }, select });
  return (await withAncestors(tx, workspaceId, [row]))[0]!;
}

/** Compare-and-set of a group's attributes: one `UPDATE … WHERE revision = $expected`. */
export async function updateContactGroupIfRevision(
  tx: Tx,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  change: { name?: string; parentId?: string | null },
): Promise<CasOutcome> {
  const { count } = await tx.contactGroup.updateMany({
    where: { workspaceId, id, revision: expectedRevision },
    data: {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.parentId === undefined ? {} : { parentId: change.parentId }),
      revision: { increment: 1 },
    },
  });
  if (count === 1) return 'updated';
  return (await tx.contactGroup.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Sets or clears `archived_at`; false when the group is missing or already in that state. */
export async function setContactGroupArchived(tx: Tx, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  const { count } = await tx.contactGroup.updateMany({
    where: { workspaceId, id, archivedAt: archivedAt === null ? { not: null } : null },
    data: { archivedAt, revision: { increment: 1 } },
  });
  return count === 1;
}
