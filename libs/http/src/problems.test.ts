import assert from 'node:assert/strict';
import { createDatabase, type Database, isDatabaseUnavailable } from '@workcell/db';
import { useTestEnvironment } from '@workcell/testing';
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
      assert.equal(isDatabaseUnavailable(error), false, label);
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
