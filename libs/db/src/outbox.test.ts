import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { configFrom } from '@workcell/config';
import { useTestDatabase } from '@workcell/testing';
import { createDatabase, type Database, type Db } from './database.js';
import { appendOutboxEvent, listenForOutboxEvents, type OutboxListener } from './outbox.js';
import { seedDemoWorkspaceIfEmpty } from './seed.js';
import { inTransaction } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * An outbox append wakes the workspace's listeners after its commit, in a statement of its own (outbox-wakes.ts):
 * never for a transaction that rolls back, once per workspace however many events a transaction wrote. The writing
 * statement itself queues no NOTIFY (its database-wide lock would be held through the commit's flush).
 */
describe('outbox wake-ups', () => {
  const db = useTestDatabase();
  let database: Database;
  let listener: OutboxListener;
  let workspaceId: string;
  const heard: string[] = [];
  /** The workspaces the Database was asked to wake, in order (what it sends; the listener shows it is sent). */
  const asked: string[] = [];
  /** `database`, with every wake-up it is asked for noted in `asked`. */
  let noting: Database;

  beforeAll(async () => {
    const config = configFrom({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
    database = createDatabase(config, { poolSize: 2 });
    noting = { ...database, wakeOutbox: (id) => (asked.push(id), database.wakeOutbox(id)) };
    workspaceId = (await seedDemoWorkspaceIfEmpty(database, config))!.workspaceId;
    let up!: () => void;
    const listening = new Promise<void>((resolve) => (up = resolve));
    listener = listenForOutboxEvents(config, { onEvent: (id) => heard.push(id), onListening: () => up() });
    await listening;
  });
  afterAll(async () => {
    await listener?.close();
    await database?.close();
  });
  /** Every wake-up asked for so far is sent and heard: a marker NOTIFY sent after them arrives after them. */
  const settled = async () => {
    await database.wakesSent();
    const marker = randomUUID();
    await database.execute(Prisma.sql`SELECT pg_notify('workcell_outbox', ${marker})`);
    await heardOf(marker);
    heard.splice(heard.indexOf(marker), 1);
  };
  beforeEach(async () => {
    await settled();
    heard.length = 0;
    asked.length = 0;
  });

  const append = (tx: Parameters<typeof appendOutboxEvent>[0]) =>
    appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: { tag: {} }, actor: null, cause: null });
  /** Waits for the wake-up of `workspaceId` to arrive (the test's timeout bounds it). */
  const heardOf = async (id: string) => {
    while (!heard.includes(id)) await new Promise((r) => setTimeout(r, 10));
  };

  it('wakes the workspace once its transaction has committed, once per transaction', async () => {
    const sequences = await inTransaction(noting, async (tx) => {
      const written = [await append(tx), await append(tx)];
      assert.deepEqual(asked, [], 'nothing is woken before the commit');
      return written;
    });
    assert.equal(sequences[1], sequences[0]! + 1n);
    assert.deepEqual(asked, [workspaceId]);
    await settled();
    assert.deepEqual(heard, [workspaceId]);
  });

  it('wakes the workspace after a pool transaction commits, and after a statement on the pool', async () => {
    await database.transaction(async (tx) => {
      await append(tx);
      await settled();
      assert.deepEqual(heard, [], 'nothing is woken before the commit');
    });
    await settled();
    assert.deepEqual(heard, [workspaceId]);
    heard.length = 0;
    await append(noting);
    assert.deepEqual(asked, [workspaceId]);
    await settled();
    assert.deepEqual(heard, [workspaceId]);
  });

  it('queues no NOTIFY in the writing statement: without its wake-up, a committed append wakes nobody', async () => {
    const silent: Database = { ...database, wakeOutbox: () => undefined };
    await inTransaction(silent, append);
    await append(silent);
    await settled();
    assert.deepEqual(heard, []);
  });

  it('does not wake anyone for a transaction that rolled back', async () => {
    for (const open of [(work: (tx: Db) => Promise<void>) => inTransaction(noting, work), (work: (tx: Db) => Promise<void>) => noting.transaction(work)]) {
      await assert.rejects(
        open(async (tx) => {
          await append(tx);
          throw new Error('roll back');
        }),
        /roll back/,
      );
    }
    assert.deepEqual(asked, []);
    await settled();
    assert.deepEqual(heard, []);
    assert.equal(listener.listening, true);
  });

  it('coalesces the wake-ups asked for while one is being sent: each workspace once', async () => {
    const other = randomUUID();
    for (let i = 0; i < 50; i++) database.wakeOutbox(i % 2 === 0 ? workspaceId : other);
    await settled();
    assert.deepEqual(heard, [workspaceId, other]);
  });

  it('stores the event as before: sequence, payload, occurredAt', async () => {
    const occurredAt = new Date('2026-01-02T03:04:05.678Z');
    const aggregateId = randomUUID();
    const sequence = await inTransaction(database, (tx) =>
      appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId, eventType: 'tag.updated', payload: { tag: { name: 'x', at: occurredAt } }, occurredAt, actor: null, cause: null }),
    );
    const row = await database.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId, aggregateId } });
    assert.equal(row.sequence, sequence);
    assert.equal(row.eventType, 'tag.updated');
    assert.deepEqual(row.payload, { tag: { name: 'x', at: occurredAt.toISOString() } });
    assert.equal(row.occurredAt.toISOString(), occurredAt.toISOString());
    assert.equal(row.publishedAt, null);
  });
});
