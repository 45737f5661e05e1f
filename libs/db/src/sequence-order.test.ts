import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { configFrom } from '@workcell/config';
import { useTestDatabase } from '@workcell/testing';
import { committedEventHead, listOutboxWindow } from './changes.js';
import { createDatabase, type Database } from './database.js';
import { appendOutboxEvent } from './outbox.js';
import { seedDemoWorkspaceIfEmpty } from './seed.js';
import { lockUnpublishedEvents } from './webhook-delivery.js';

/**
 * The relay and the change feed read outbox events in sequence order through raw statements that select the
 * sequence as text (pg decodes int8 as a string). Ordered by that text, 10 would come before 9: both readers must
 * order by the column. The sequences here cross a digit boundary so that text order and number order differ.
 */
describe('outbox readers keep sequence order', () => {
  const db = useTestDatabase();
  let database: Database;
  let workspaceId: string;
  let sequences: bigint[];

  beforeAll(async () => {
    const config = configFrom({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
    database = createDatabase(config, { poolSize: 2 });
    workspaceId = (await seedDemoWorkspaceIfEmpty(database, config))!.workspaceId;
    await database.prisma.outboxEvent.updateMany({ where: { publishedAt: null }, data: { publishedAt: new Date() } });
    sequences = await database.prisma.$transaction(async (tx) => {
      const appended: bigint[] = [];
      for (let i = 0; i < 12; i++) appended.push(await appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: { tag: {} } }));
      return appended;
    });
    assert.ok(sequences.some((s) => s.toString().length !== sequences[0]!.toString().length), `the sequences cross a digit boundary: ${sequences.join(', ')}`);
  });
  afterAll(() => database?.close());

  it('the relay locks the oldest unpublished events first', async () => {
    const locked = await database.transaction((tx) => lockUnpublishedEvents(tx, 3));
    assert.deepEqual(
      locked.map((e) => e.sequence),
      sequences.slice(0, 3),
    );
  });

  it('the change feed reads a window in sequence order', async () => {
    const head = await committedEventHead(database, workspaceId);
    assert.equal(head, sequences.at(-1));
    const window = await listOutboxWindow(database, workspaceId, { after: sequences[0]! - 1n, upTo: head, eventTypes: ['tag.created'], take: 12 });
    assert.deepEqual(
      window.map((e) => e.sequence),
      sequences,
    );
  });
});
