import assert from 'node:assert/strict';
import { isDependencyUnavailable } from '@workcell/config';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database, FAST_GROWING_TABLES, preparedReads } from './database.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Which statements Database.rows prepares (docs/performance.md, "Cost ledger"): reads, on a direct session, at most
 * PREPARED_READS_LIMIT texts; writes and everything behind a transaction pooler go unnamed.
 */
describe('prepared reads', () => {
  it('names reads only, one name per text, and stops naming new texts at the limit', () => {
    const naming = preparedReads(true, 2);
    const read = naming(Prisma.sql`SELECT id FROM tasks WHERE id = ${'a'}`);
    assert.match(read.name ?? '', /^wc_[\w-]{24}$/);
    assert.deepEqual([read.text, read.values], ['SELECT id FROM tasks WHERE id = $1', ['a']]);
    assert.equal(naming(Prisma.sql`SELECT id FROM tasks WHERE id = ${'b'}`).name, read.name, 'the same text keeps its name');
    for (const write of [Prisma.sql`UPDATE tasks SET title = ${'t'}`, Prisma.sql`INSERT INTO tags (id) VALUES (${'x'})`, Prisma.sql`WITH x AS (DELETE FROM tags RETURNING id) SELECT id FROM x`]) {
      assert.equal(naming(write).name, undefined, write.text);
    }
    for (const table of FAST_GROWING_TABLES) {
      assert.equal(naming(Prisma.raw(`SELECT count(*) FROM ${table} WHERE workspace_id = '00000000-0000-0000-0000-000000000000'`)).name, undefined, `a read of ${table} keeps no plan`);
    }
    assert.equal(naming(Prisma.sql`SELECT t.id FROM tasks t JOIN outbox_events e ON e.aggregate_id = t.id`).name, undefined, 'nor a join with one');
    const second = naming(Prisma.sql`  select 1 AS one`);
    assert.ok(second.name && second.name !== read.name);
    assert.equal(naming(Prisma.sql`SELECT 2 AS two`).name, undefined, 'a third text is past the limit');
    assert.equal(naming(Prisma.sql`SELECT id FROM tasks WHERE id = ${'c'}`).name, read.name, 'a known text stays named');
    assert.equal(preparedReads(false)(Prisma.sql`SELECT 1 AS one`).name, undefined);
  });

  describe('on a database', () => {
    let db: TestDatabase;
    const opened: Database[] = [];
    const open = (overrides: Record<string, string>) => {
      const database = createDatabase(testConfig({ DATABASE_URL: db.url, ...overrides }), { poolSize: 1 });
      opened.push(database);
      return database;
    };
    /** The connection's prepared statements: the pool has one connection, so it is the one the reads ran on. */
    const prepared = async (database: Database) =>
      (await database.rows<{ statement: string }>(Prisma.sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'wc\\_%'`)).map((r) => r.statement);

    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      for (const database of opened) await database.close();
      await db?.drop();
    });

    it('prepares a read once per connection on a direct session, and no write', async () => {
      const database = open({});
      const read = Prisma.sql`SELECT count(*)::int AS n FROM workspaces WHERE id <> ${'00000000-0000-0000-0000-000000000000'}::uuid`;
      for (let i = 0; i < 3; i++) await database.rows(read);
      await database.execute(Prisma.sql`UPDATE workspaces SET name = name WHERE id = ${'00000000-0000-0000-0000-000000000000'}::uuid`);
      await database.transaction((tx) => tx.rows(Prisma.sql`SELECT 1 AS inside`));
      const statements = await prepared(database);
      assert.ok(statements.includes(read.text), statements.join('\n'));
      assert.ok(statements.includes('SELECT 1 AS inside'), 'reads inside a pool transaction too');
      assert.ok(!statements.some((s) => s.startsWith('UPDATE')), 'no write is prepared');
    });

    it('a migration that changes the type of a column a prepared read returns: the read is prepared again, on the pool and in a transaction', async () => {
      const database = open({});
      await database.execute(Prisma.sql`CREATE TABLE migrated (id int PRIMARY KEY, amount int NOT NULL)`);
      await database.execute(Prisma.sql`INSERT INTO migrated VALUES (1, 7)`);
      const read = Prisma.sql`SELECT amount FROM migrated WHERE id = ${1}`;
      for (let i = 0; i < 6; i++) assert.deepEqual(await database.rows(read), [{ amount: 7 }]);
      // What a deploy's migration does while the service runs; the connection keeps the statement it prepared.
      await database.execute(Prisma.sql`ALTER TABLE migrated ALTER COLUMN amount TYPE text`);
      assert.deepEqual(await database.rows(read), [{ amount: '7' }], 'on the pool: prepared again at once');
      await database.execute(Prisma.sql`ALTER TABLE migrated ALTER COLUMN amount TYPE numeric USING amount::numeric`);
      // In a transaction the refused statement has aborted it: the transaction fails once, the next one is served.
      const inTransaction = () => database.transaction((tx) => tx.rows(read));
      // A temporary failure (503 with Retry-After at the edge), never a 500.
      await assert.rejects(inTransaction(), (error: Error) => /cached plan must not change result type/.test(error.message) && isDependencyUnavailable(error));
      assert.deepEqual(await inTransaction(), [{ amount: '7' }]);
      assert.deepEqual(await database.rows(read), [{ amount: '7' }]);
    });

    it('names real tables as fast-growing', async () => {
      const database = open({});
      for (const table of FAST_GROWING_TABLES) {
        const [row] = await database.rows<{ found: string | null }>(Prisma.sql`SELECT to_regclass(${table})::text AS found`);
        assert.equal(row?.found, table);
      }
    });

    it('prepares nothing when DATABASE_URL goes through a transaction pooler (DATABASE_DIRECT_URL differs)', async () => {
      // The same server under another address: what matters is that the two settings differ.
      const database = open({ DATABASE_DIRECT_URL: `${db.url}${db.url.includes('?') ? '&' : '?'}application_name=direct` });
      await database.rows(Prisma.sql`SELECT 1 AS one`);
      assert.deepEqual(await prepared(database), []);
    });
  });
});
