import assert from 'node:assert/strict';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@workcell/testing';
import { createManagedPool } from './pool.js';

/**
 * The harness drops each test file's database WITH (FORCE) the moment the file ends. A pool that is still closing
 * then, or that has no 'error' listener, turns the server's termination notice into an uncaught error that fails
 * the file at random (seen in CI on keyset-cost). These tests pin both halves deterministically.
 */
describe('managed pg pool', () => {
  let db: TestDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = new URL(db.url);
    url.pathname = '/postgres';
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.drop();
  });

  it('end() resolves only after every connection has closed (pg-pool alone resolves before)', async () => {
    const tracked = (pool: pg.Pool) => {
      const clients: pg.PoolClient[] = [];
      pool.on('connect', (client) => clients.push(client));
      return clients;
    };
    const closedAfter = async (pool: pg.Pool, end: () => Promise<void>) => {
      const clients = tracked(pool);
      await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
      let closed = 0;
      for (const client of clients) client.once('end', () => closed++);
      await end();
      return { closed, total: clients.length };
    };
    const plain = new pg.Pool({ connectionString: db.url, max: 2 });
    plain.on('error', () => undefined);
    const before = await closedAfter(plain, () => plain.end());
    assert.ok(before.closed < before.total, 'pg-pool resolved end() before its connections closed: the race this guards against');
    const managed = createManagedPool({ connectionString: db.url, max: 2 });
    const now = await closedAfter(managed.pool, () => managed.end());
    assert.equal(now.closed, now.total);
    assert.equal(now.total, 2);
  });

  it('a connection the server terminates (dropped database, restart) never becomes an uncaught error', async () => {
    const managed = createManagedPool({ connectionString: db.url, max: 1, application_name: 'wc-pool-test' });
    await managed.pool.query('SELECT 1');
    // 'remove' follows the pool's 'error' emit; the test adds no 'error' listener of its own, so without the pool's
    // built-in one the emit would throw and fail this file as an uncaught error.
    const removed = new Promise<void>((resolve) => managed.pool.once('remove', () => resolve()));
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'wc-pool-test'");
    await removed;
    assert.equal((await managed.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1, 'the pool replaces the lost connection');
    await managed.end();
  });
});
