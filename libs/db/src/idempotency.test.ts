import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { configFrom } from '@workcell/config';
import { useTestDatabase } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { claimIdempotencyKey, type HeldIdempotencyKey } from './idempotency.js';
import { appendOutboxEvent } from './outbox.js';
import { seedDemoWorkspaceIfEmpty } from './seed.js';
import { inTransaction } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Issue 11: a held idempotency key is completed by the mutation's own statement (keyCompletion in the outbox
 * append), so it commits with the change or not at all. What a crash between the commit and the response leaves
 * behind is therefore a completed key: the retry after the lock expired is a replay, never a second run.
 */
describe('idempotency keys completed by the mutation', () => {
  const db = useTestDatabase();
  let database: Database;
  let workspaceId: string;
  let credentialId: string;

  beforeAll(async () => {
    const config = configFrom({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
    database = createDatabase(config, { poolSize: 2 });
    workspaceId = (await seedDemoWorkspaceIfEmpty(database, config))!.workspaceId;
    credentialId = (await database.prisma.credential.findFirstOrThrow({ where: { workspaceId } })).id;
  });
  afterAll(() => database?.close());

  const claim = (key: string, now = new Date()) =>
    claimIdempotencyKey(database, { workspaceId, credentialId, operationId: 'createTag', key, fingerprint: 'f', now, lockMs: 60_000, retentionMs: 86_400_000 });
  /** A mutation that writes its event, with `result`, under the held key; `fail` rolls its transaction back after the write. */
  const mutate = (held: HeldIdempotencyKey, result: unknown, fail = false) =>
    inTransaction(database, async (tx) => {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: {}, result, actor: null, cause: null, heldKey: held });
      if (fail) throw new Error('the mutation failed after its write');
    });
  const afterTheLock = () => new Date(Date.now() + 61_000);

  it('a key whose mutation committed is replayed with its result (keys in their order), even after its lock expired', async () => {
    const key = randomUUID();
    const first = await claim(key);
    assert.equal(first.outcome, 'claimed');
    const held: HeldIdempotencyKey = { workspaceId, recordId: first.outcome === 'claimed' ? first.recordId : '', mode: 'run' };
    // The process "dies" right after the commit: nothing completes the key but the mutation itself.
    await mutate(held, { name: 'Tag', id: 'b', archived: false });
    assert.deepEqual(held.storedByMutation, { name: 'Tag', id: 'b', archived: false });
    const retry = await claim(key, afterTheLock());
    assert.equal(retry.outcome, 'replay');
    assert.ok('result' in retry);
    assert.deepEqual(Object.keys(retry.result as object), ['name', 'id', 'archived']);
  });

  it('a key whose mutation rolled back stays in progress and is taken over once its lock expired', async () => {
    const key = randomUUID();
    const first = await claim(key);
    assert.equal(first.outcome, 'claimed');
    await assert.rejects(mutate({ workspaceId, recordId: first.outcome === 'claimed' ? first.recordId : '', mode: 'run' }, { id: 'x' }, true));
    assert.equal((await claim(key)).outcome, 'in_progress');
    assert.equal((await claim(key, afterTheLock())).outcome, 'claimed');
  });

  it('an event without a result, or outside a held key, completes nothing', async () => {
    const key = randomUUID();
    const first = await claim(key);
    const held: HeldIdempotencyKey = { workspaceId, recordId: first.outcome === 'claimed' ? first.recordId : '', mode: 'run' };
    await mutate(held, undefined);
    await inTransaction(database, (tx) =>
      appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: {}, result: { id: 'y' }, actor: null, cause: null }),
    );
    assert.equal(held.storedByMutation, undefined);
    assert.equal((await claim(key)).outcome, 'in_progress');
  });

  it("the claim commits without waiting for its WAL flush: the completing mutation's flush covers it", async () => {
    // Run in a transaction of the test's, the claim's statement leaves its setting visible to the next statement.
    const setting = await inTransaction(database, async (tx) => {
      const claimed = await claimIdempotencyKey(tx as Database, {
        workspaceId,
        credentialId,
        operationId: 'createTag',
        key: randomUUID(),
        fingerprint: 'f',
        now: new Date(),
        lockMs: 60_000,
        retentionMs: 86_400_000,
      });
      assert.equal(claimed.outcome, 'claimed');
      const [row] = await tx.rows<{ setting: string }>(Prisma.sql`SELECT current_setting('synchronous_commit') AS setting`);
      return row!.setting;
    });
    assert.equal(setting, 'off');
    const [after] = await database.rows<{ setting: string }>(Prisma.sql`SELECT current_setting('synchronous_commit') AS setting`);
    assert.equal(after!.setting, 'on', 'only the claim’s own transaction');
  });
});
