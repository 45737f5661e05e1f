import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Database.transaction: one transaction on a pool client of its own, statements straight through pg (the webhook
 * relay's path). The pool has one client here, so a client that was not given back, or given back mid-transaction,
 * shows in the very next statement.
 */
describe('Database.transaction (a pool transaction)', () => {
  let db: TestDatabase;
  let database: Database;
  const rows = async () => (await database.statement<{ n: number }>(Prisma.sql`SELECT n FROM scratch ORDER BY n`)).rows.map((r) => r.n);

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 1 });
    await database.statement(Prisma.sql`CREATE TABLE scratch (n int PRIMARY KEY)`);
  });
  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('commits every statement of the work together and returns its result', async () => {
    const result = await database.transaction(async (tx) => {
      const inserted = await tx.statement(Prisma.sql`INSERT INTO scratch (n) VALUES (1), (2)`);
      const [row] = (await tx.statement<{ total: number }>(Prisma.sql`SELECT count(*)::int AS total FROM scratch`)).rows;
      return { inserted: inserted.count, seen: row!.total };
    });
    assert.deepEqual(result, { inserted: 2, seen: 2 });
    assert.deepEqual(await rows(), [1, 2]);
  });

  it('is one transaction: what it wrote is invisible to the pool until it commits', async () => {
    const outside = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 1 });
    try {
      await database.transaction(async (tx) => {
        await tx.statement(Prisma.sql`INSERT INTO scratch (n) VALUES (3)`);
        assert.deepEqual((await outside.statement<{ n: number }>(Prisma.sql`SELECT n FROM scratch WHERE n = 3`)).rows, []);
      });
      assert.deepEqual((await outside.statement<{ n: number }>(Prisma.sql`SELECT n FROM scratch WHERE n = 3`)).rows, [{ n: 3 }]);
    } finally {
      await outside.close();
    }
  });

  it('a throw in the work rolls every statement back and is rethrown; the client serves on', async () => {
    await assert.rejects(
      database.transaction(async (tx) => {
        await tx.statement(Prisma.sql`INSERT INTO scratch (n) VALUES (10)`);
        throw new Error('the work failed');
      }),
      { message: 'the work failed' },
    );
    // A failed statement aborts the transaction; it is rolled back too, and the next one starts clean.
    await assert.rejects(database.transaction((tx) => tx.statement(Prisma.sql`INSERT INTO scratch (n) VALUES (1)`)), { code: '23505' });
    assert.deepEqual(await rows(), [1, 2, 3]);
    assert.deepEqual(await database.transaction(async (tx) => (await tx.statement<{ one: number }>(Prisma.sql`SELECT 1 AS one`)).rows), [{ one: 1 }]);
  });

  it('a session that dies mid-transaction fails the work, commits nothing, and the pool serves on with a new client', async () => {
    await assert.rejects(
      database.transaction(async (tx) => {
        await tx.statement(Prisma.sql`INSERT INTO scratch (n) VALUES (20)`);
        // The server ends this very session: the statement fails, and so does the ROLLBACK.
        await tx.statement(Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`);
      }),
    );
    // The pool's only client is replaced by a fresh connection; the dead session's insert never committed.
    assert.deepEqual(await rows(), [1, 2, 3]);
  });
});
