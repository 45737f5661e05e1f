import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { DependencyBudget, isDependencyUnavailable, withDependencyBudget } from '@workcell/config';
import { createTestDatabase, TcpProxy, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { inTransaction } from './transactions.js';

/**
 * (Prisma's promises are lazy: they run when awaited, so each is awaited inside the budget it is meant to use.)
 *
 * Issue 10: a request's statements share one dependency budget (DEPENDENCY_TIMEOUT_MS for the whole request, not
 * per statement), a statement cut off by it discards its connection (never reused mid-protocol, its transaction
 * rolled back), and a partitioned PostgreSQL fails a request within the budget instead of hanging it.
 */

const BUDGET_MS = 500;
/** Generous: the machine is shared. */
const MARGIN_MS = 700;

describe("PostgreSQL within a request's dependency budget", () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let database: Database;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await TcpProxy.start(db.url);
    database = createDatabase(testConfig({ DATABASE_URL: proxy.rewrite(db.url), DEPENDENCY_TIMEOUT_MS: String(BUDGET_MS) }), { poolSize: 2 });
    workspaceId = (await database.prisma.workspace.create({ data: { name: 'Budget' } })).id;
  });
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await db?.drop();
  });

  const timed = async (work: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> => {
    const started = performance.now();
    try {
      await work();
      return { ms: performance.now() - started, error: undefined };
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
  };

  it('one budget spans every statement of a request: three 300 ms statements in a 500 ms budget fail at about 500 ms', async () => {
    const sleeps = async () => {
      for (let i = 0; i < 3; i++) await database.prisma.$queryRaw`SELECT pg_sleep(0.3)::text`;
    };
    const { ms, error } = await timed(() => withDependencyBudget(new DependencyBudget(BUDGET_MS), sleeps));
    assert.ok(isDependencyUnavailable(error), `expected an unavailable error, got ${String(error)}`);
    assert.ok(ms >= BUDGET_MS - 50 && ms <= BUDGET_MS + MARGIN_MS, `failed after ${Math.round(ms)} ms`);
    // Outside a request (a job, a tool) the same statements are not cut short.
    assert.equal((await timed(sleeps)).error, undefined);
  });

  it("the request's own processing does not spend the budget; only waiting on PostgreSQL does", async () => {
    const { error } = await timed(() =>
      withDependencyBudget(new DependencyBudget(BUDGET_MS), async () => {
        for (let i = 0; i < 3; i++) {
          await database.prisma.$queryRaw`SELECT 1`;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }),
    );
    assert.equal(error, undefined);
  });

  it("waiting behind the process's own requests for a pooled connection is not PostgreSQL's time (issue 25): twelve requests on two connections all answer", async () => {
    // Each request holds a connection for 150 ms (well within its own budget); the last ones queue about 900 ms,
    // longer than the 500 ms budget, behind the others, while the pool keeps making progress.
    const requests = Array.from({ length: 12 }, () =>
      timed(() => withDependencyBudget(new DependencyBudget(BUDGET_MS), async () => await inTransaction(database, (tx) => tx.prisma.$queryRaw`SELECT pg_sleep(0.15)::text`))),
    );
    const outcomes = await Promise.all(requests);
    assert.deepEqual(
      outcomes.map((o) => (o.error === undefined ? 'answered' : String(o.error))),
      Array(12).fill('answered'),
    );
    assert.ok(Math.max(...outcomes.map((o) => o.ms)) > BUDGET_MS, 'some waited in the queue for longer than the budget');
  });

  it('a queued request still fails as unavailable within the bound when every connection is stuck on a partition', async () => {
    await database.prisma.$queryRaw`SELECT 1`;
    await proxy.blackhole();
    try {
      // Two requests take both connections and hang on the partition; the third queues behind them.
      const outcomes = await Promise.all(Array.from({ length: 3 }, () => timed(() => withDependencyBudget(new DependencyBudget(BUDGET_MS), async () => await database.prisma.$queryRaw`SELECT 1`))));
      for (const { error, ms } of outcomes) {
        assert.ok(isDependencyUnavailable(error), `expected an unavailable error, got ${String(error)}`);
        assert.ok(ms <= 2 * BUDGET_MS + MARGIN_MS, `failed after ${Math.round(ms)} ms`);
      }
    } finally {
      await proxy.restore();
    }
    for (let i = 0; i < 50; i++) {
      if ((await timed(() => database.prisma.$queryRaw`SELECT 1`)).error === undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('a statement cut off discards its connection and its transaction is rolled back; the pool carries on', async () => {
    const name = `budget-${randomUUID()}`;
    const { error } = await timed(() =>
      withDependencyBudget(
        new DependencyBudget(BUDGET_MS),
        async () =>
          await inTransaction(database, async (tx) => {
            await tx.prisma.tag.create({ data: { workspaceId, name } });
            await tx.prisma.$queryRaw`SELECT pg_sleep(2)::text`;
          }),
      ),
    );
    assert.ok(isDependencyUnavailable(error), `expected an unavailable error, got ${String(error)}`);
    // Every client of the pool (two) answers its own statements again: none is left mid-statement or inside the
    // cut-off transaction (whose insert would otherwise become visible to, or block, the next user).
    for (let i = 0; i < 4; i++) {
      const rows = await Promise.all([database.prisma.$queryRaw<{ n: number }[]>`SELECT 1 AS n`, database.prisma.$queryRaw<{ n: number }[]>`SELECT 2 AS n`]);
      assert.deepEqual(
        rows.map((r) => r[0]?.n),
        [1, 2],
      );
      assert.equal(await database.prisma.$queryRaw<{ tx: boolean }[]>`SELECT now() = statement_timestamp() AS tx`.then((r) => r[0]?.tx), true, 'a pooled client is still inside a transaction');
    }
    assert.equal(await database.prisma.tag.count({ where: { workspaceId, name } }), 0);
  });

  it('black-holed: reads, writes and transactions fail within the budget, as unavailable, and recover by themselves', async () => {
    await database.prisma.$queryRaw`SELECT 1`;
    await proxy.blackhole();
    try {
      for (const work of [
        () => database.prisma.tag.findMany({ where: { workspaceId } }),
        () => database.prisma.tag.create({ data: { workspaceId, name: `partition-${randomUUID()}` } }),
        () => inTransaction(database, (tx) => tx.prisma.tag.count({ where: { workspaceId } })),
        () => database.ping(),
      ]) {
        const { ms, error } = await timed(() => withDependencyBudget(new DependencyBudget(BUDGET_MS), async () => await work()));
        assert.ok(isDependencyUnavailable(error), `expected an unavailable error, got ${String(error)}`);
        assert.ok(ms <= BUDGET_MS + MARGIN_MS, `failed after ${Math.round(ms)} ms`);
      }
    } finally {
      await proxy.restore();
    }
    let last: unknown;
    for (let i = 0; i < 50; i++) {
      last = (await timed(() => withDependencyBudget(new DependencyBudget(BUDGET_MS), async () => await database.prisma.tag.count({ where: { workspaceId } })))).error;
      if (last === undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(last, undefined);
  });
});
