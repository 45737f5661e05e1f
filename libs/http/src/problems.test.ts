import assert from 'node:assert/strict';
import { DependencyBudget, isDependencyUnavailable, withDependencyBudget } from '@workcell/config';
import { createDatabase, type Database } from '@workcell/db';
import { createRedis, runScript, whenReady } from '@workcell/redis';
import { postgresRefusing, redisReplying, startImpostor, testConfig, useTestEnvironment } from '@workcell/testing';
import { isDataException, toProblem } from './problems.js';

const env = useTestEnvironment();

/**
 * The backstop of the hostile-input class: whatever form a PostgreSQL data exception (SQLSTATE class 22) takes
 * when it reaches the edge (pg's error, the Prisma adapter's, Prisma's known request error around it), it is the
 * request's fault, a 400 `validation_failed`, and never a 500 or a "dependency unavailable" 503. The errors are
 * the real ones, raised by the real database.
 */
describe('a value PostgreSQL refuses is a 400, not a 5xx', () => {
  let database: Database;
  beforeAll(() => {
    database = createDatabase(env.config, { poolSize: 1 });
  });
  afterAll(() => database.close());

  const failureOf = async (run: () => Promise<unknown>, label = ''): Promise<unknown> =>
    run().then(
      () => assert.fail(`PostgreSQL accepted the value: ${label}`),
      (error: unknown) => error,
    );

  it('maps data exceptions of raw and typed queries to 400 validation_failed', async () => {
    const cases: Record<string, () => Promise<unknown>> = {
      'NUL in text (22021, raw)': () => database.prisma.$queryRawUnsafe('SELECT $1::text AS t', 'a\u0000b'),
      'NUL in text (22021, typed write)': () => database.prisma.workspace.create({ data: { name: 'a\u0000b' } }),
      'year 0 (22008, raw)': () => database.prisma.$queryRawUnsafe(`SELECT '0000-01-01'::date AS d`),
      'year 0 (typed filter)': () => database.prisma.workspace.findMany({ where: { createdAt: { gt: new Date('0000-06-01T00:00:00Z') } } }),
      'year 0 (typed write)': () => database.prisma.workspace.create({ data: { name: 'dated', lockedAt: new Date('0000-06-01T00:00:00Z') } }),
      'integer out of range (22003, raw)': () => database.prisma.$queryRawUnsafe('SELECT 2147483648::int4 AS i'),
      'integer out of range (typed filter)': () => database.prisma.workspace.findMany({ where: { revision: 2 ** 40 } }),
      'not a uuid (22P02, typed)': () => database.prisma.workspace.findMany({ where: { id: 'not-a-uuid' } }),
    };
    for (const [label, run] of Object.entries(cases)) {
      const error = await failureOf(run, label);
      assert.equal(isDataException(error), true, `${label}: ${String(error)}`);
      assert.equal(isDependencyUnavailable(error), false, label);
      const problem = toProblem(error);
      assert.deepEqual([problem.status, problem.code], [400, 'validation_failed'], label);
      assert.ok(!problem.detail.includes('0x00') && !problem.detail.includes('0000'), `${label}: the detail says nothing of the value`);
    }
  });

  it('leaves other database failures alone', async () => {
    const syntax = await failureOf(() => database.prisma.$queryRawUnsafe('SELEC 1'));
    assert.equal(isDataException(syntax), false);
    assert.equal(toProblem(syntax).status, 500);
    const workspace = await database.prisma.workspace.create({ data: { name: 'unique' } });
    const duplicate = await failureOf(() => database.prisma.workspace.create({ data: { id: workspace.id, name: 'again' } }));
    assert.equal(isDataException(duplicate), false);
    assert.equal(toProblem(duplicate).status, 500);
  });
});

/**
 * Issue 25: a dependency that is up but refuses the work (PostgreSQL at max_connections or not accepting sessions,
 * Redis loading its dataset, without its master, its cluster down or resharding) is unavailable: 503 with
 * Retry-After, never a 500. The errors are the real ones pg, Prisma and its adapter, and ioredis raise from
 * impostor servers speaking their protocols (libs/testing impostors.ts).
 */
describe('a dependency refusing the work is a 503, not a 500', () => {
  const failureOf = async (run: () => Promise<unknown>, label: string): Promise<unknown> =>
    // As in a request: within a dependency budget.
    withDependencyBudget(new DependencyBudget(2_000), run).then(
      () => assert.fail(`${label} succeeded`),
      (error: unknown) => error,
    );
  const assertUnavailable = (error: unknown, label: string) => {
    assert.equal(isDependencyUnavailable(error), true, `${label}: ${String(error)}`);
    const problem = toProblem(error);
    assert.deepEqual([problem.status, problem.code, problem.headers], [503, 'service_unavailable', { 'retry-after': '1' }], label);
    assert.doesNotMatch(problem.detail, /53|57P|08|clients|LOADING|MASTER|CLUSTER|TRYAGAIN/, `${label}: the detail names nothing internal`);
  };

  const refusals: readonly [string, string][] = [
    ['53300', 'sorry, too many clients already'],
    ['53300', 'remaining connection slots are reserved for roles with the SUPERUSER attribute'],
    ['57P03', 'the database system is not yet accepting connections'],
    ['08004', 'the server rejected the connection'],
  ];
  for (const [sqlstate, message] of refusals) {
    it(`PostgreSQL refusing sessions with ${sqlstate} (${message}): pg's, the adapter's and Prisma's errors`, async () => {
      const server = await startImpostor(postgresRefusing(sqlstate, message), 'postgresql');
      const database = createDatabase(testConfig({ DATABASE_URL: `postgresql://workcell:secret@127.0.0.1:${server.port}/workcell` }), { poolSize: 1 });
      try {
        const cases: Record<string, () => Promise<unknown>> = {
          'Prisma typed read': () => database.prisma.workspace.findMany(),
          'Prisma typed write': () => database.prisma.workspace.create({ data: { name: 'refused' } }),
          'Prisma raw query': () => database.prisma.$queryRawUnsafe('SELECT 1'),
          'Prisma interactive transaction': () => database.prisma.$transaction((tx) => tx.workspace.findMany()),
          'pg query (Database.ping)': () => database.ping(),
          'pg transaction (Database.transaction)': () => database.transaction(async () => undefined),
        };
        for (const [label, run] of Object.entries(cases)) assertUnavailable(await failureOf(run, label), `${sqlstate} ${label}`);
      } finally {
        await database.close();
        await server.close();
      }
    });
  }

  for (const reply of [
    'LOADING Redis is loading the dataset in memory',
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    'CLUSTERDOWN The cluster is down',
    'TRYAGAIN Multiple keys request during rehashing of slot',
  ]) {
    it(`Redis answering -${reply.split(' ')[0]}: a command's and a script's error`, async () => {
      const server = await startImpostor(redisReplying(reply), 'redis');
      const redis = createRedis(testConfig({ REDIS_URL: server.url }), 'problems-test');
      try {
        assertUnavailable(await failureOf(() => whenReady(redis, 2_000, () => redis.get('key')), 'GET'), `${reply} GET`);
        assertUnavailable(await failureOf(() => whenReady(redis, 2_000, () => runScript(redis, 'return 1', ['key'], [])), 'script'), `${reply} script`);
      } finally {
        redis.disconnect();
        await server.close();
      }
    });
  }
});
