import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { legacyRowAt } from './legacy-pages.js';
import { measureQueryCost, type QueryCost } from './query-cost.js';
import { listTasksPage } from './tasks.js';
import { TEAM_WIDE_VIEWER } from './visibility-testing.js';

/**
 * Issue 11: v0 page 200 of 500 in 100,000 tasks costs about what page 1 costs. A v0 page is the row before it
 * (legacyRowAt: OFFSET over an index, answered from the index alone) plus the keyset pages of the v1 list after
 * that row. Proven on PostgreSQL's counters (shared buffers, rows scanned, sorts), never on timings: the only
 * extra work of a deep page is reading the index entries of the rows before it (a few hundred index pages per
 * 100,000 rows, no heap page, no sort); the page's own statements cost the same as page 1's.
 */

const ROWS = 100_000;
const LIMIT = 500;
const PAGE = 200;
/** Position of the last row before page 200. */
const BEFORE = (PAGE - 1) * LIMIT - 1;
/** Index entries per index leaf page are well above 100 for (workspace_id, id, archived_at); plus the descent. */
const seekBound = (position: number) => Math.ceil(position / 100) + 8;
const V1_PAGE = 200;

const total = (costs: readonly QueryCost[]) => costs.reduce((sum, cost) => sum + cost.sharedBlocks, 0);

describe('v0 pages by number: cost', () => {
  let db: TestDatabase;
  let database: Database;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    workspaceId = (await database.prisma.workspace.create({ data: { name: 'Deep' } })).id;
    const other = (await database.prisma.workspace.create({ data: { name: 'Other' } })).id;
    // Every 50th task archived (left out of the list), and another workspace's tasks in the same table.
    await database.prisma.$executeRaw`
      INSERT INTO tasks (workspace_id, title, archived_at)
      SELECT ${workspaceId}::uuid, 'task ' || g, CASE WHEN g % 50 = 0 THEN now() END FROM generate_series(1, ${Math.ceil(ROWS * 1.02)}) g`;
    await database.prisma.$executeRaw`INSERT INTO tasks (workspace_id, title) SELECT ${other}::uuid, 'other ' || g FROM generate_series(1, 20000) g`;
    // uuidv7() is random within a millisecond, so how full the id index's pages end up depends on how fast the rows
    // went in (other indexes on tasks, a busy machine): a fresh build packs them the same way every run, so the page
    // bounds below measure the seek, not the insert's timing.
    await database.prisma.$executeRawUnsafe('REINDEX TABLE tasks');
    // What autovacuum does in production: the visibility map lets the index answer without the heap. A page one
    // VACUUM leaves unmarked (pinned by another backend at that moment, as CI's parallel suites can) would send the
    // seek to the heap and past its bound: vacuum until every page is all-visible, so the bounds measure the index.
    for (let attempt = 0; ; attempt++) {
      await database.prisma.$executeRawUnsafe('VACUUM ANALYZE tasks');
      const [table] = await database.prisma.$queryRaw<{ visible: boolean }[]>`SELECT relallvisible = relpages AS visible FROM pg_class WHERE oid = 'tasks'::regclass`;
      if (table?.visible) break;
      assert.ok(attempt < 20, 'the tasks table never became all-visible');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  /** The statements of one v0 page: the seek (page > 1) and the v1 keyset pages after it. */
  async function v0Page(client: Database, page: number): Promise<string[]> {
    let after = page === 1 ? undefined : ((await legacyRowAt(client, 'tasks', workspaceId, (page - 1) * LIMIT - 1)) ?? undefined);
    const ids: string[] = [];
    while (ids.length < LIMIT) {
      const take = Math.min(V1_PAGE, LIMIT - ids.length);
      const rows = await listTasksPage(client, workspaceId, {}, after, take + 1, TEAM_WIDE_VIEWER);
      ids.push(...rows.slice(0, take).map((row) => row.id));
      if (rows.length <= take) break;
      after = ids.at(-1);
    }
    return ids;
  }

  it('the row before page 200 is found in the index alone: no sort, no heap, a bound that depends on the position only', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    const [seek] = await measureQueryCost(config, (client) => legacyRowAt(client, 'tasks', workspaceId, BEFORE));
    assert.ok(seek);
    assert.equal(seek.sorts, false, seek.sql);
    assert.ok(seek.sharedBlocks <= seekBound(BEFORE), `touched ${seek.sharedBlocks} pages, bound ${seekBound(BEFORE)}`);
  });

  it('page 200 of 500 costs page 1 plus that index count, and holds rows 99,500 … 99,999', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    const first = await measureQueryCost(config, (client) => v0Page(client, 1));
    const deep = await measureQueryCost(config, (client) => v0Page(client, PAGE));
    assert.equal(deep.length, first.length + 1, 'one statement more: the seek');
    const [seek, ...rest] = deep;
    assert.equal(seek!.sorts, false, seek!.sql);
    // The page's own statements are page 1's (keyset pages and their tag links, which sort one page's links on page 1 too): no more rows.
    rest.forEach((cost, i) => {
      assert.equal(cost.sorts, first[i]!.sorts, cost.sql);
      assert.ok(cost.rowsScanned <= first[i]!.rowsScanned, `a page ${PAGE} statement scanned ${cost.rowsScanned} rows, page 1's ${first[i]!.rowsScanned}`);
    });
    console.log(`shared buffers: page 1 ${total(first)} in ${first.length} statements; page ${PAGE} ${total(deep)} (seek ${seek!.sharedBlocks}, rows scanned ${seek!.rowsScanned})`);
    assert.ok(total(deep) <= total(first) + seekBound(BEFORE), `page 1: ${total(first)} pages, page ${PAGE}: ${total(deep)}`);

    const expected = await database.prisma.task.findMany({ where: { workspaceId, archivedAt: null }, orderBy: { id: 'asc' }, skip: BEFORE + 1, take: LIMIT, select: { id: true } });
    assert.deepEqual(
      await v0Page(database, PAGE),
      expected.map((row) => row.id),
    );
    assert.equal(await legacyRowAt(database, 'tasks', workspaceId, ROWS), null, 'past the end');
  });

  it('the measurement can fail: without the index the seek reads the heap (or sorts)', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    await database.prisma.$executeRawUnsafe('DROP INDEX tasks_workspace_id_id_archived_at_idx');
    try {
      const [seek] = await measureQueryCost(config, (client) => legacyRowAt(client, 'tasks', workspaceId, BEFORE));
      assert.ok(seek);
      assert.ok(seek.sorts || seek.sharedBlocks > seekBound(BEFORE), `touched ${seek.sharedBlocks} pages`);
    } finally {
      await database.prisma.$executeRawUnsafe('CREATE INDEX tasks_workspace_id_id_archived_at_idx ON tasks (workspace_id, id, archived_at)');
    }
  });
});
