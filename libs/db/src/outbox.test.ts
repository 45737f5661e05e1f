import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { configFrom } from '@workcell/config';
import { useTestDatabase } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { appendOutboxEvent, listenForOutboxEvents, type OutboxListener } from './outbox.js';
import { seedDemoWorkspaceIfEmpty } from './seed.js';
import { inTransaction } from './transactions.js';

/**
 * The outbox append notifies OUTBOX_CHANNEL in the writing transaction: PostgreSQL delivers it on commit only,
 * once per workspace and transaction. The order of notifications against a marker sent after each transaction
 * shows what was delivered without waiting for anything to not happen.
 */
describe('outbox notifications', () => {
  const db = useTestDatabase();
  let database: Database;
  let listener: OutboxListener;
  let workspaceId: string;
  const heard: string[] = [];
  let marker: (payload: string) => Promise<void>;

  beforeAll(async () => {
    const config = configFrom({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
    database = createDatabase(config, { poolSize: 2 });
    workspaceId = (await seedDemoWorkspaceIfEmpty(database, config))!.workspaceId;
    let up!: () => void;
    const listening = new Promise<void>((resolve) => (up = resolve));
    listener = listenForOutboxEvents(config, { onEvent: (id) => heard.push(id), onListening: () => up() });
    await listening;
    // A marker on the same channel, outside any transaction: every notification before it has arrived when it does.
    marker = async (payload) => {
      await database.prisma.$executeRaw`SELECT pg_notify('workcell_outbox', ${payload})`;
      while (!heard.includes(payload)) await new Promise((r) => setTimeout(r, 10));
    };
  });
  afterAll(async () => {
    await listener?.close();
    await database?.close();
  });

  const append = (tx: Parameters<typeof appendOutboxEvent>[0]) =>
    appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: { tag: {} }, actor: null, cause: null });

  it('notifies the workspace on commit, once per transaction', async () => {
    heard.length = 0;
    const sequences = await inTransaction(database, async (tx) => [await append(tx), await append(tx)]);
    assert.equal(sequences[1], sequences[0]! + 1n);
    await marker('m1');
    assert.deepEqual(heard, [workspaceId, 'm1']);
  });

  it('does not notify for a transaction that rolled back', async () => {
    heard.length = 0;
    await assert.rejects(
      inTransaction(database, async (tx) => {
        await append(tx);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    await marker('m2');
    assert.deepEqual(heard, ['m2']);
    assert.equal(listener.listening, true);
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
