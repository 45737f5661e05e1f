import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, TcpProxy, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database, poolStatements } from './database.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Database.transaction: one transaction on a pool client of its own, statements straight through pg (the webhook
 * relay's path). The pool has one client here, so a client that was not given back, or given back mid-transaction,
 * shows in the very next statement.
 */
describe('Database.transaction (a pool transaction)', () => {
  let db: TestDatabase;
  let database: Database;
  const rows = async () => (await database.rows<{ n: number }>(Prisma.sql`SELECT n FROM scratch ORDER BY n`)).map((r) => r.n);

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 1 });
    await database.execute(Prisma.sql`CREATE TABLE scratch (n int PRIMARY KEY)`);
  });
  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('commits every statement of the work together and returns its result', async () => {
    const result = await database.transaction(async (tx) => {
      const inserted = await tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (1), (2)`);
      const [row] = await tx.rows<{ total: number }>(Prisma.sql`SELECT count(*)::int AS total FROM scratch`);
      return { inserted, seen: row!.total };
    });
    assert.deepEqual(result, { inserted: 2, seen: 2 });
    assert.deepEqual(await rows(), [1, 2]);
  });

  it("runs statements only: Prisma's models are not on it, and asking for them says so", async () => {
    await assert.rejects(
      database.transaction(async (tx) => tx.prisma.workspace.findMany()),
      /runs statements only/,
    );
    assert.deepEqual(await database.transaction((tx) => tx.rows<{ one: number }>(Prisma.sql`SELECT 1 AS one`)), [{ one: 1 }]);
  });

  it('is one transaction: what it wrote is invisible to the pool until it commits', async () => {
    const outside = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 1 });
    try {
      await database.transaction(async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (3)`);
        assert.deepEqual(await outside.rows<{ n: number }>(Prisma.sql`SELECT n FROM scratch WHERE n = 3`), []);
      });
      assert.deepEqual(await outside.rows<{ n: number }>(Prisma.sql`SELECT n FROM scratch WHERE n = 3`), [{ n: 3 }]);
    } finally {
      await outside.close();
    }
  });

  it('a throw in the work rolls every statement back and is rethrown; the client serves on', async () => {
    await assert.rejects(
      database.transaction(async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (10)`);
        throw new Error('the work failed');
      }),
      { message: 'the work failed' },
    );
    // A failed statement aborts the transaction; it is rolled back too, and the next one starts clean.
    await assert.rejects(
      database.transaction((tx) => tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (1)`)),
      { code: '23505' },
    );
    assert.deepEqual(await rows(), [1, 2, 3]);
    assert.deepEqual(await database.transaction(async (tx) => await tx.rows<{ one: number }>(Prisma.sql`SELECT 1 AS one`)), [{ one: 1 }]);
  });

  it('a session that dies mid-transaction fails the work, commits nothing, and the pool serves on with a new client', async () => {
    await assert.rejects(
      database.transaction(async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (20)`);
        // The server ends this very session: the statement fails, and so does the ROLLBACK.
        await tx.execute(Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`);
      }),
    );
    // The pool's only client is replaced by a fresh connection; the dead session's insert never committed.
    assert.deepEqual(await rows(), [1, 2, 3]);
  });

  it('a transaction whose server stops answering (a partition) fails at its timeout instead of hanging, and the pool serves on', async () => {
    const proxy = await TcpProxy.start(db.url);
    const pool = new pg.Pool({ connectionString: proxy.rewrite(db.url), max: 1 });
    pool.on('error', () => undefined);
    const proxied = poolStatements(pool, { transactionTimeoutMs: 500, wakeOutbox: () => undefined });
    try {
      await proxied.execute(Prisma.sql`SELECT 1`);
      const hung = proxied.transaction(async (tx) => {
        await tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (30)`);
        await proxy.blackhole();
        await tx.execute(Prisma.sql`INSERT INTO scratch (n) VALUES (31)`);
      });
      // Without the timeout this would wait for TCP to give up (minutes); the test fails at 10 s instead.
      const bound = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the transaction hung')), 10_000).unref());
      await assert.rejects(Promise.race([hung, bound]), /did not end within 500 ms/);
      await proxy.restore();
      assert.deepEqual(await proxied.rows<{ one: number }>(Prisma.sql`SELECT 1 AS one`), [{ one: 1 }], 'a new connection serves');
      assert.deepEqual(await rows(), [1, 2, 3], 'nothing of the cut transaction committed');
    } finally {
      await pool.end();
      await proxy.close();
    }
  });

  it('an outbox wake-up to a server that stops answering fails within the dependency timeout: it holds neither the waker nor the shutdown', async () => {
    const proxy = await TcpProxy.start(db.url);
    const proxied = createDatabase(testConfig({ DATABASE_URL: proxy.rewrite(db.url), DEPENDENCY_TIMEOUT_MS: '500' }), { poolSize: 1 });
    try {
      await proxied.execute(Prisma.sql`SELECT 1`);
      await proxy.blackhole();
      proxied.wakeOutbox(randomUUID());
      // Without its budget the statement would wait for TCP to give up (minutes); the test fails at 10 s instead.
      const bound = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the wake-up hung')), 10_000).unref());
      await Promise.race([proxied.wakesSent(), bound]);
      await Promise.race([proxied.close(), bound]);
    } finally {
      await proxy.close();
    }
  });
});
