import { setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { pageIds } from './keyset.js';

/**
 * A hierarchical group family (contact groups, product groups): a tree per workspace (`parent_id`). Archive
 * never deletes (`archived_at`); reads by id see archived groups (so they can be restored), lists leave them
 * out. Every query is scoped by the workspace id.
 *
 * Re-parenting must never create a cycle, also under concurrent moves (A under B while B moves under A):
 * every write of `parent_id` first takes the workspace's hierarchy lock of the family (a transaction-scoped
 * advisory lock), so the cycle check and the write of one move run before or after another move's, never
 * interleaved, and the check reads the hierarchy as committed by the previous move (READ COMMITTED takes a
 * new snapshot per statement).
 */

export interface TreeGroupRecord {
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

export interface TreeGroupFilter {
  readonly parentId?: string | undefined;
  /** Only these ids (a service account's resource grants); absent or null: every row. */
  readonly onlyIds?: readonly string[] | null;
}

const select = { id: true, workspaceId: true, name: true, parentId: true, revision: true, archivedAt: true, createdAt: true, updatedAt: true } as const;

type Row = Omit<TreeGroupRecord, 'ancestorIds'>;

/** Longest ancestor chain followed; a deeper (or, by corruption, cyclic) chain is cut here. */
const MAX_DEPTH = 1000;

/** The two tables have the same columns, so one delegate type serves both (the product-group one is cast to it). */
type GroupDelegate = Db['prisma']['contactGroup'];

export interface GroupTree {
  /** The ancestor ids (root first) of each given group, by group id. */
  ancestors(client: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, string[]>>;
  /** One group of the workspace, archived or not. */
  find(client: Db, workspaceId: string, id: string): Promise<TreeGroupRecord | null>;
  /** One keyset page of the workspace's unarchived groups in id order. */
  listPage(client: Db, workspaceId: string, filter: TreeGroupFilter, afterId: string | undefined, take: number): Promise<TreeGroupRecord[]>;
  /** Of the given ids (UUIDs), those naming an unarchived group of the workspace. */
  existingIds(client: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Serialises every change of the workspace's hierarchy of this family until the transaction ends. */
  lock(tx: Db, workspaceId: string): Promise<void>;
  insert(tx: Db, workspaceId: string, input: { name: string; parentId: string | null }): Promise<TreeGroupRecord>;
  /** Compare-and-set of a group's attributes: one `UPDATE … WHERE revision = $expected`. */
  updateIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, change: { name?: string; parentId?: string | null }): Promise<CasOutcome>;
  /** Sets or clears `archived_at`; false when the group is missing or already in that state. */
  setArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean>;
}

export function groupTree(family: { readonly table: 'contact_groups' | 'product_groups'; readonly delegate: (tx: Db) => GroupDelegate }): GroupTree {
  const table = Prisma.raw(family.table);
  const lockKey = (workspaceId: string) => `workcell:${family.table}:${workspaceId}`;
  const of = (client: Db) => family.delegate(client);

  const ancestors: GroupTree['ancestors'] = async (client, workspaceId, ids) => {
    const result = new Map<string, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return result;
    const rows = await client.prisma.$queryRaw<{ start_id: string; id: string }[]>`
      WITH RECURSIVE chain(start_id, id, parent_id, depth) AS (
        SELECT g.id, g.id, g.parent_id, 0 FROM ${table} g WHERE g.workspace_id = ${workspaceId}::uuid AND g.id = ANY(${[...ids]}::uuid[])
        UNION ALL
        SELECT c.start_id, p.id, p.parent_id, c.depth + 1
          FROM chain c JOIN ${table} p ON p.workspace_id = ${workspaceId}::uuid AND p.id = c.parent_id
         WHERE c.depth < ${MAX_DEPTH}
      )
      SELECT start_id::text AS start_id, id::text AS id FROM chain WHERE depth > 0 ORDER BY start_id, depth DESC`;
    for (const row of rows) result.get(row.start_id)?.push(row.id);
    return result;
  };

  const withAncestors = async (client: Db, workspaceId: string, rows: readonly Row[]): Promise<TreeGroupRecord[]> => {
    const found = await ancestors(
      client,
      workspaceId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => Object.assign(r, { ancestorIds: found.get(r.id) ?? [] }));
  };

  return {
    ancestors,
    async find(client, workspaceId, id) {
      const row = await of(client).findFirst({ where: { workspaceId, id }, select });
      return row ? ((await withAncestors(client, workspaceId, [row]))[0] ?? null) : null;
    },
    async listPage(client, workspaceId, filter, afterId, take) {
      const rows = await of(client).findMany({
        where: { workspaceId, archivedAt: null, ...(filter.parentId === undefined ? {} : { parentId: filter.parentId }), ...pageIds(afterId, filter.onlyIds) },
        orderBy: { id: 'asc' },
        take,
        select,
      });
      return withAncestors(client, workspaceId, rows);
    },
    async existingIds(client, workspaceId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await of(client).findMany({ where: { workspaceId, id: { in: [...ids] }, archivedAt: null }, select: { id: true } });
      return new Set(rows.map((r) => r.id));
    },
    async lock(tx, workspaceId) {
      await tx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(workspaceId)}::text, 0))`;
    },
    async insert(tx, workspaceId, input) {
      const row = await of(tx).create({ data: { workspaceId, name: input.name, parentId: input.parentId }, select });
      return (await withAncestors(tx, workspaceId, [row]))[0]!;
    },
    updateIfRevision: (tx, workspaceId, id, expectedRevision, change) =>
      updateIfRevision(of(tx), workspaceId, id, expectedRevision, {
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.parentId === undefined ? {} : { parentId: change.parentId }),
      }),
    setArchived: (tx, workspaceId, id, archivedAt) => setArchivedAt(of(tx), workspaceId, id, archivedAt),
  };
}
