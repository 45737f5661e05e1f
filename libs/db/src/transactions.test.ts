import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { Prisma } from './generated/prisma/client.js';
import { inAuthorizationTransaction, inTransaction, withinTransaction } from './transactions.js';

/**
 * Opening and joining transactions (transactions.ts): a procedure written for the pool, run with the Database of a
 * caller's transaction (withinTransaction: an automation step inside its run's transaction), opens no transaction of
 * its own: its inTransaction joins the caller's, so both commit or roll back together.
 */
describe('inTransaction and withinTransaction', () => {
  let db: TestDatabase;
  let database: Database;
  const txid = async (client: { $queryRaw: Database['prisma']['$queryRaw'] }) => (await client.$queryRaw<{ id: string }[]>`SELECT txid_current()::text AS id`)[0]!.id;

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    await database.execute(Prisma.sql`CREATE TABLE joined_writes (label text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('a transaction opened on a joined Database is the caller’s: the same transaction id, and its writes roll back with it', async () => {
    await assert.rejects(
      inTransaction(database, async (tx) => {
        const joined = withinTransaction(database, tx);
        const inner = await inTransaction(joined, async (innerTx) => {
          await innerTx.$executeRaw`INSERT INTO joined_writes VALUES ('inner')`;
          return txid(innerTx);
        });
        assert.equal(inner, await txid(tx));
        // Reads and writes straight on the joined Database run in the caller's transaction too.
        await joined.execute(Prisma.sql`INSERT INTO joined_writes VALUES ('statement')`);
        assert.deepEqual(
          (await joined.rows<{ label: string }>(Prisma.sql`SELECT label FROM joined_writes ORDER BY label`)).map((r) => r.label),
          ['inner', 'statement'],
        );
        throw new Error('the caller rolls back');
      }),
      /the caller rolls back/,
    );
    assert.deepEqual(await database.rows(Prisma.sql`SELECT label FROM joined_writes`), []);
  });

  it('options apply to a transaction it opens; a joined one keeps the caller’s', async () => {
    const level = (client: { $queryRaw: Database['prisma']['$queryRaw'] }) => client.$queryRaw<{ level: string }[]>`SELECT current_setting('transaction_isolation') AS level`;
    assert.deepEqual(await inTransaction(database, level, { isolationLevel: 'Serializable' }), [{ level: 'serializable' }]);
    await inTransaction(database, async (tx) => {
      assert.deepEqual(await inTransaction(withinTransaction(database, tx), level, { isolationLevel: 'Serializable' }), [{ level: 'read committed' }]);
    });
  });

  it('an authorization change cannot join another transaction', async () => {
    await inTransaction(database, async (tx) => {
      await assert.rejects(
        inAuthorizationTransaction(withinTransaction(database, tx), '00000000-0000-0000-0000-000000000000', async () => undefined),
        /cannot join another transaction/,
      );
    });
  });
});
