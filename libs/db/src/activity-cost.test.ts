import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { listTargetEventsPage, type TargetEventQuery } from './activity.js';
import { createDatabase, type Database } from './database.js';
import { measureQueryCost } from './query-cost.js';

/**
 * Issue 13: a target's activity page is index-backed for one target, however large the workspace's event log and
 * however deep the page: each branch of listTargetEventsPage (the target's own events on
 * outbox_events_aggregate_sequence_idx, its comments' on outbox_events_comment_target_idx) is one index range scan
 * that stops after the page, never a scan of the workspace's events.
 */

const TARGETS = 300;
/** Events of the workspace: two task events and one comment event per round, each round on another target. */
const EVENTS = 90_000;
const TAKE = 51;

describe('activity page cost', () => {
  let db: TestDatabase;
  let database: Database;
  let workspaceId: string;
  let targetId: string;
  let deepAfter: bigint;

  const query = (): TargetEventQuery => ({
    kind: 'task',
    id: targetId,
    commentTargetType: 'tasks',
    eventTypes: ['task.created', 'task.updated'],
    commentEventTypes: ['comment.created'],
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    workspaceId = (await database.prisma.workspace.create({ data: { name: 'Busy' } })).id;
    await database.prisma.$executeRaw`
      WITH targets AS (SELECT array_agg(gen_random_uuid()) AS ids FROM generate_series(1, ${TARGETS}))
      INSERT INTO outbox_events (workspace_id, sequence, aggregate_type, aggregate_id, event_type, payload)
      SELECT ${workspaceId}::uuid, g,
             CASE WHEN g % 3 = 0 THEN 'comment' ELSE 'task' END,
             CASE WHEN g % 3 = 0 THEN gen_random_uuid() ELSE t.ids[1 + (g / 3) % ${TARGETS}] END,
             CASE WHEN g % 3 = 0 THEN 'comment.created' ELSE 'task.updated' END,
             CASE WHEN g % 3 = 0 THEN jsonb_build_object('comment', jsonb_build_object('targetType', 'tasks', 'targetId', t.ids[1 + (g / 3) % ${TARGETS}]::text)) ELSE '{}'::jsonb END
        FROM generate_series(1, ${EVENTS}) g CROSS JOIN targets t`;
    await database.prisma.$executeRawUnsafe('ANALYZE outbox_events');
    const [row] = await database.prisma.$queryRaw<{ id: string }[]>`SELECT aggregate_id::text AS id FROM outbox_events WHERE workspace_id = ${workspaceId}::uuid AND sequence = 1`;
    targetId = row!.id;
    const all = await listTargetEventsPage(database, workspaceId, query(), undefined, 10_000);
    assert.equal(all.length, EVENTS / TARGETS, 'every event of the target, its own and its comments’');
    assert.ok(all.some((e) => e.aggregateType === 'comment') && all.some((e) => e.aggregateType === 'task'));
    deepAfter = all[all.length - TAKE - 10]!.sequence;
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('reads the first and a deep page of one target with index range scans that stop after the page', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    for (const after of [undefined, deepAfter]) {
      const [cost] = await measureQueryCost(config, (client) => listTargetEventsPage(client, workspaceId, query(), after, TAKE));
      assert.ok(cost, 'the page ran one SELECT');
      assert.ok(cost.rowsScanned <= TAKE, `each scan reads at most one page of rows, read ${cost.rowsScanned}: ${cost.sql}`);
      // Two index descents plus at most one heap page per row read, whatever the size of the log.
      assert.ok(cost.sharedBlocks <= 2 * TAKE + 16, `touched ${cost.sharedBlocks} pages`);
    }
  });

  it('the measurement can fail: the same page without the target indexes scans the workspace’s events', async () => {
    const config = testConfig({ DATABASE_URL: db.url });
    for (const index of ['outbox_events_comment_target_idx', 'outbox_events_aggregate_sequence_idx']) await database.prisma.$executeRawUnsafe(`DROP INDEX ${index}`);
    const [cost] = await measureQueryCost(config, (client) => listTargetEventsPage(client, workspaceId, query(), deepAfter, TAKE));
    assert.ok(cost);
    assert.ok(cost.rowsScanned > 10 * TAKE || cost.sharedBlocks > 10 * (2 * TAKE + 16), `scanned ${cost.rowsScanned} rows, ${cost.sharedBlocks} pages`);
  });
});
