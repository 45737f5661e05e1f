import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { measureQueryCost } from './query-cost.js';
import { lockUnpublishedEvents } from './webhook-delivery.js';

/**
 * Issue 28 (thirteenth session): a relay run reads the unpublished events in sequence order at a cost that does not
 * grow with the outbox. The statistics are the ones a burst of writes leaves (analyzed while every event was still
 * unpublished), the state in which PostgreSQL walked the (workspace_id, sequence) unique index and filtered out each
 * published event of the workspace on every run when the unpublished events had only an index of occurred_at.
 */

const EVENTS = 50_000;
const LEFT = 5;
const TAKE = 200;

describe('relay read cost', () => {
  let db: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    const workspaceId = (await database.prisma.workspace.create({ data: { name: 'Busy outbox' } })).id;
    await database.prisma.$executeRaw`
      INSERT INTO outbox_events (workspace_id, sequence, aggregate_type, aggregate_id, event_type, payload)
      SELECT ${workspaceId}::uuid, g, 'task', gen_random_uuid(), 'task.created', '{}'::jsonb FROM generate_series(1, ${EVENTS}) g`;
    await database.prisma.$executeRawUnsafe('ANALYZE outbox_events');
    await database.prisma.$executeRaw`UPDATE outbox_events SET published_at = now() WHERE sequence <= ${EVENTS - LEFT}`;
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  const relayRead = async () => {
    const [cost] = await measureQueryCost(testConfig({ DATABASE_URL: db.url }), async (client) => assert.equal((await lockUnpublishedEvents(client, TAKE)).length, LEFT));
    assert.ok(cost, 'the relay read ran one SELECT');
    return cost;
  };

  it('reads the unpublished events without walking the published ones', async () => {
    const cost = await relayRead();
    assert.equal(cost.sorts, false, 'the index gives the sequence order');
    // About 250 pages here: the index's leaf pages, whose entries for the published events the relay's own run has
    // already marked dead. Walking the published events touches one page per event (about 80,000 below).
    assert.ok(cost.sharedBlocks <= 1_000, `touched ${cost.sharedBlocks} pages: ${cost.sql}`);
  });

  it('the measurement can fail: with the unpublished events indexed by occurred_at, the same read walks every published event', async () => {
    await database.prisma.$executeRawUnsafe('DROP INDEX outbox_events_unpublished_idx');
    await database.prisma.$executeRawUnsafe('CREATE INDEX outbox_events_unpublished_idx ON outbox_events (occurred_at) WHERE published_at IS NULL');
    const cost = await relayRead();
    assert.ok(cost.sharedBlocks > 10_000, `touched ${cost.sharedBlocks} pages`);
  });
});
