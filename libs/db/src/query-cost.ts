import { PrismaPg } from '@prisma/adapter-pg';
import type { AppConfig } from '@workcell/config';
import { type Database, type Db, IN_TRANSACTION, runAsAuthorizationChange } from './database.js';
import { type Prisma, PrismaClient } from './generated/prisma/client.js';
import { createManagedPool } from './pool.js';

/** What one statement cost, as PostgreSQL's own EXPLAIN (ANALYZE, BUFFERS) counts it: pages, rows, sorts. */
export interface QueryCost {
  readonly sql: string;
  /** Shared buffers touched (hit + read) by the whole plan: the work, independent of machine speed. */
  readonly sharedBlocks: number;
  /** The most rows any scan node produced. */
  readonly rowsScanned: number;
  /** Whether the plan sorts (a keyset page served by an index never does). */
  readonly sorts: boolean;
}

type PlanNode = { 'Node Type': string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; Plans?: PlanNode[] };

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/**
 * Runs `work` against a Database whose client records every statement it sends, then replays each SELECT under
 * EXPLAIN (ANALYZE, BUFFERS) with the same parameters. Used to prove cost properties deterministically (a deep
 * keyset page touches as many pages as the first) where a timing would be noise.
 */
export async function measureQueryCost(config: AppConfig, work: (database: Database) => Promise<unknown>): Promise<QueryCost[]> {
  const managed = createManagedPool({ connectionString: config.database.url, max: 2 });
  const { pool } = managed;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), log: [{ emit: 'event', level: 'query' }] });
  const recorded: { query: string; params: string }[] = [];
  prisma.$on('query', (event) => recorded.push({ query: event.query, params: event.params }));
  // Cost measurement observes statements only: no API instance caches verifications against this database. Its
  // statements go through Prisma so that they are recorded (`count` is the rows returned: costs are of reads).
  const statementsOf = (client: Prisma.TransactionClient): Db => ({
    prisma: client,
    rows: <T>(query: Prisma.Sql) => client.$queryRawUnsafe<T[]>(query.text, ...query.values),
    execute: (query: Prisma.Sql) => client.$executeRawUnsafe(query.text, ...query.values),
    // Nothing listens to a cost measurement's outbox.
    wakeOutbox: () => undefined,
  });
  const database: Database = {
    ...statementsOf(prisma),
    prisma,
    // A transaction's Db carries the mark, so what runs inside it joins it (inTransaction) instead of opening one.
    transaction: (work) => prisma.$transaction((tx) => work({ ...statementsOf(tx), [IN_TRANSACTION]: true })),
    ping: async () => undefined,
    wakesSent: async () => undefined,
    changeAuthorization: (workspaceId, change) => runAsAuthorizationChange(workspaceId, change),
    close: async () => undefined,
  };
  try {
    await work(database);
    const costs: QueryCost[] = [];
    for (const { query, params } of recorded) {
      if (!/^\s*SELECT/i.test(query)) continue;
      const result = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query}`, JSON.parse(params) as unknown[]);
      const plan = result.rows[0]!['QUERY PLAN'][0].Plan;
      let rowsScanned = 0;
      let sorts = false;
      walk(plan, (node) => {
        if (node['Node Type'].endsWith('Scan')) rowsScanned = Math.max(rowsScanned, (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1));
        if (node['Node Type'] === 'Sort') sorts = true;
      });
      costs.push({ sql: query, sharedBlocks: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0), rowsScanned, sorts });
    }
    return costs;
  } finally {
    await prisma.$disconnect();
    await managed.end();
  }
}
