import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { configFrom } from '@workcell/config';
import { useTestDatabase } from '@workcell/testing';
import { committedEventHead, headAndFirstWindow, listOutboxWindow } from './changes.js';
import { createDatabase, type Database } from './database.js';
import { appendOutboxEvent } from './outbox.js';
import { seedDemoWorkspaceIfEmpty } from './seed.js';
import { inTransaction } from './transactions.js';
import { lockUnpublishedEvents } from './webhook-delivery.js';
import { TEAM_WIDE_VIEWER } from './visibility-testing.js';

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
    sequences = await inTransaction(database, async (tx) => {
      const appended: bigint[] = [];
      for (let i = 0; i < 12; i++)
        appended.push(await appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: { tag: {} }, actor: null, cause: null }));
      return appended;
    });
    assert.ok(
      sequences.some((s) => s.toString().length !== sequences[0]!.toString().length),
      `the sequences cross a digit boundary: ${sequences.join(', ')}`,
    );
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
    const window = await listOutboxWindow(database, workspaceId, { after: sequences[0]! - 1n, upTo: head, eventTypes: ['tag.created'], take: 12, viewer: TEAM_WIDE_VIEWER });
    assert.deepEqual(
      window.map((e) => e.sequence),
      sequences,
    );
  });

  it("the feed's first read takes the head and its first window in one statement, in sequence order and bounded by both", async () => {
    const after = sequences[0]! - 1n;
    const all = await headAndFirstWindow(database, workspaceId, { after, span: 2000n, eventTypes: ['tag.created'], take: 12, viewer: TEAM_WIDE_VIEWER });
    assert.deepEqual([all.head, all.rows.map((e) => e.sequence)], [sequences.at(-1), sequences]);
    const spanned = await headAndFirstWindow(database, workspaceId, { after, span: 5n, eventTypes: ['tag.created'], take: 12, viewer: TEAM_WIDE_VIEWER });
    assert.deepEqual(
      spanned.rows.map((e) => e.sequence),
      sequences.slice(0, 5),
      'the span bounds the window',
    );
    const taken = await headAndFirstWindow(database, workspaceId, { after, span: 2000n, eventTypes: ['tag.created'], take: 3, viewer: TEAM_WIDE_VIEWER });
    assert.deepEqual(
      taken.rows.map((e) => e.sequence),
      sequences.slice(0, 3),
      'take bounds it',
    );
    const none = await headAndFirstWindow(database, workspaceId, { after: all.head, span: 2000n, eventTypes: ['tag.created'], take: 12, viewer: TEAM_WIDE_VIEWER });
    assert.deepEqual([none.head, none.rows], [all.head, []], 'caught up: the head, no rows');
    const elsewhere = await headAndFirstWindow(database, '00000000-0000-0000-0000-000000000000', { after: 0n, span: 2000n, eventTypes: ['tag.created'], take: 12, viewer: TEAM_WIDE_VIEWER });
    assert.deepEqual([elsewhere.head, elsewhere.rows], [0n, []], 'a workspace without events: head 0');
  });
});
