import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { findMember } from './members.js';
import { type DemoTokens, seedDemoWorkspaceIfEmpty } from './seed.js';
import { inTransaction } from './transactions.js';

/**
 * Statements sent at once on one client (Prisma's adapter does, for a read's relations inside an interactive
 * transaction: prisma/orm#29468) take turns in the client itself (database.ts sendInTurn), never in pg's internal
 * queue, which pg 8 deprecates and pg 9 removes. Without the turns, the member read below reaches that queue, and
 * the deprecation, thrown where it is raised, ends the test run.
 */
describe('statements sent at once on one client', () => {
  let db: TestDatabase;
  let database: Database;
  let demo: DemoTokens;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = testConfig({ DATABASE_URL: db.url });
    database = createDatabase(config, { poolSize: 2 });
    demo = (await seedDemoWorkspaceIfEmpty(database, config))!;
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    process.throwDeprecation = false;
    await database?.close();
    await db?.drop();
  });

  it('a member read with its user, roles and groups, inside a transaction, answers without reaching pg’s deprecated queue', async () => {
    const member = await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: demo.workspaceId } });
    process.throwDeprecation = true;
    for (let i = 0; i < 20; i++) {
      const read = await inTransaction(database, (tx) => findMember(tx, demo.workspaceId, member.id));
      assert.equal(read?.id, member.id);
    }
    assert.deepEqual(
      warnings.filter((w) => /already executing a query/.test(w.message)),
      [],
    );
  });

  it('a statement that fails does not hold up the one sent after it', async () => {
    process.throwDeprecation = true;
    // Whichever Prisma sends first, both settle: the division by zero fails, and the other answers or finds the
    // transaction aborted.
    const settled = await inTransaction(database, (tx) => Promise.allSettled([tx.prisma.$queryRaw`SELECT 1 / 0`, tx.prisma.$queryRaw`SELECT 1 AS one`]));
    assert.equal(settled.length, 2);
    assert.equal(settled[0]!.status, 'rejected');
  });
});
