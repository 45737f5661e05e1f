import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database, type Db } from './database.js';
import { Prisma } from './generated/prisma/client.js';
import { measureQueryCost } from './query-cost.js';
import { inAuthorizationTransaction, inTransaction, isTransaction } from './transactions.js';

/**
 * Opening and joining transactions (transactions.ts): a procedure written for the pool, given a caller's transaction
 * as its Db (an automation step inside its run's transaction), opens no transaction of its own: its inTransaction
 * joins the caller's, so both commit or roll back together.
 */
describe('inTransaction: opening on the pool, joining a transaction', () => {
  let db: TestDatabase;
  let database: Database;
  const txid = async (client: Db) => (await client.rows<{ id: string }>(Prisma.sql`SELECT txid_current()::text AS id`))[0]!.id;

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    await database.execute(Prisma.sql`CREATE TABLE joined_writes (label text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('one Db: a function written for the pool runs in the transaction, its raw statements and its models alike', async () => {
    // What a data function sees (its one Db parameter), on the pool and inside a transaction.
    const write = async (client: Db, label: string) => {
      await client.execute(Prisma.sql`INSERT INTO joined_writes VALUES (${label})`);
      return { txid: await txid(client), modelTxid: (await client.prisma.$queryRaw<{ id: string }[]>`SELECT txid_current()::text AS id`)[0]!.id };
    };
    await assert.rejects(
      inTransaction(database, async (tx) => {
        const seen = await write(tx, 'in-tx');
        assert.equal(seen.txid, seen.modelTxid, 'rows and prisma run in one transaction');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await database.rows(Prisma.sql`SELECT label FROM joined_writes`), [], 'both rolled back with it');
    const alone = await write(database, 'pool');
    assert.notEqual(alone.txid, alone.modelTxid, 'on the pool each statement commits by itself');
    await database.execute(Prisma.sql`DELETE FROM joined_writes`);
  });

  it('tells a transaction from the pool: the pool is none, inTransaction’s and a pool transaction’s Db are', async () => {
    assert.equal(isTransaction(database), false);
    assert.equal(await inTransaction(database, async (tx) => isTransaction(tx)), true);
    assert.equal(await database.transaction(async (tx) => isTransaction(tx)), true);
  });

  it('the query-cost Database’s transaction is one too: work inside it joins it', async () => {
    let joined = false;
    await measureQueryCost(testConfig({ DATABASE_URL: db.url }), (costed) => costed.transaction((tx) => inTransaction(tx, async (inner) => void (joined = inner === tx))));
    assert.equal(joined, true);
  });

  it('a transaction asked of a transaction is the caller’s: the same transaction id, and its writes roll back with it', async () => {
    await assert.rejects(
      inTransaction(database, async (tx) => {
        const inner = await inTransaction(tx, async (innerTx) => {
          await innerTx.prisma.$executeRaw`INSERT INTO joined_writes VALUES ('inner')`;
          return txid(innerTx);
        });
        assert.equal(inner, await txid(tx));
        await tx.execute(Prisma.sql`INSERT INTO joined_writes VALUES ('statement')`);
        assert.deepEqual(
          (await tx.rows<{ label: string }>(Prisma.sql`SELECT label FROM joined_writes ORDER BY label`)).map((r) => r.label),
          ['inner', 'statement'],
        );
        throw new Error('the caller rolls back');
      }),
      /the caller rolls back/,
    );
    assert.deepEqual(await database.rows(Prisma.sql`SELECT label FROM joined_writes`), []);
  });

  it('options apply to a transaction it opens; a joined one keeps the caller’s', async () => {
    const level = (client: Db) => client.rows<{ level: string }>(Prisma.sql`SELECT current_setting('transaction_isolation') AS level`);
    assert.deepEqual(await inTransaction(database, level, { isolationLevel: 'Serializable' }), [{ level: 'serializable' }]);
    await inTransaction(database, async (tx) => {
      assert.deepEqual(await inTransaction(tx, level, { isolationLevel: 'Serializable' }), [{ level: 'read committed' }]);
    });
  });

  it('an authorization change cannot join another transaction', async () => {
    await inTransaction(database, async (tx) => {
      await assert.rejects(
        inAuthorizationTransaction(tx, '00000000-0000-0000-0000-000000000000', async () => undefined),
        /cannot join another transaction/,
      );
    });
  });
});
