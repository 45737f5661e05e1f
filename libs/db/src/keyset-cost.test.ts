import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { measureQueryCost } from './query-cost.js';
import { insertSyntheticTags, syntheticTagIdAt } from './synthetic.js';
import { listTagsPage } from './tags.js';

/**
 * Issue 6: "a page deep in a million rows costs the same as the first". Proven on PostgreSQL's own counters
 * (shared buffers touched, rows scanned, no sort) rather than timings: a keyset page ends its index range scan
 * after `take` rows wherever it starts. tools/bench measures the same property as a time ratio on a million rows.
 */

const ROWS = 200_000;
const TAKE = 51;
/** Index levels (≤ 4 at this size) + one heap page per row + the visibility map. */
const PAGE_BOUND = TAKE + 8;

describe('keyset pagination cost', () => {
  let db: TestDatabase;
  let database: Database;
  let workspaceId: string;
  let deepAfterId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    workspaceId = (await database.prisma.workspace.create({ data: { name: 'Deep' } })).id;
    await insertSyntheticTags(database, workspaceId, ROWS);
    deepAfterId = await syntheticTagIdAt(database, workspaceId, ROWS - 1000);
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('the page after row 199,000 is bounded like the first: one index range scan of its own rows, no sort', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    const [first] = await measureQueryCost(config, (client) => listTagsPage(client, workspaceId, undefined, TAKE));
    const [deep] = await measureQueryCost(config, (client) => listTagsPage(client, workspaceId, deepAfterId, TAKE));
    assert.ok(first && deep, 'both pages ran one SELECT');
    for (const cost of [first, deep]) {
      assert.equal(cost.sorts, false, `no sort: ${cost.sql}`);
      assert.ok(cost.rowsScanned <= TAKE, `scans at most one page of rows, scanned ${cost.rowsScanned}`);
    }
    // One index descent (a few levels, the same at any depth) plus at most one heap page per row returned: the
    // bound depends on the page size only. (How many heap pages one page's rows share depends on insert order.)
    for (const cost of [first, deep]) assert.ok(cost.sharedBlocks <= PAGE_BOUND, `touched ${cost.sharedBlocks} pages, bound ${PAGE_BOUND}`);
  });

  it('the measurement can fail: an OFFSET page that deep touches far more pages', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    const [offset] = await measureQueryCost(config, (client) =>
      client.prisma.tag.findMany({ where: { workspaceId, archivedAt: null }, orderBy: { id: 'asc' }, skip: ROWS - 1000, take: TAKE, select: { id: true } }),
    );
    assert.ok(offset);
    assert.ok(offset.rowsScanned > 100 * TAKE, `OFFSET scanned ${offset.rowsScanned} rows`);
    assert.ok(offset.sharedBlocks > 10 * PAGE_BOUND, `OFFSET touched ${offset.sharedBlocks} pages`);
  });
});
