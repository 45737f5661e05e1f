import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { V1_SCOPES } from '@workcell/credentials';
import { claimIdempotencyKey, createDatabase, type Database, poolStatements, PrismaClient, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import { createTask, getTask, invoke, listTasks, operationOf, type ProcedureContext, type TaskView, updateTask, type V1AuthContext } from '@workcell/domain';
import { useTestEnvironment } from '@workcell/testing';

/**
 * Issue 11: the v1 task operations' own database work, counted in statements sent over the wire (BEGIN and COMMIT
 * included) rather than timed: a read is one statement (the task, its tags and the acting member's running timer), a
 * page of 100 is one statement, and a create that names no other resource is one statement (task, tags and its
 * outbox event together, atomic without a transaction), two with its Idempotency-Key (the claim, then the create's
 * statement, which also completes the key).
 */

const env = useTestEnvironment();

/** Every statement a pg client sends, in order. */
class RecordingClient extends pg.Client {
  static sent: string[] = [];
  override query(...args: unknown[]): never {
    const first = args[0] as string | { text?: string };
    RecordingClient.sent.push(typeof first === 'string' ? first : (first.text ?? ''));
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

describe('v1 task statements', () => {
  let seeding: Database;
  let database: Database;
  let pool: pg.Pool;
  let ctx: ProcedureContext;
  let auth: V1AuthContext;
  let workspaceId: string;
  let memberId: string;
  let tagIds: string[];
  let projectId: string;
  let listId: string;

  /** How often Database.prisma was reached for. */
  let prismaUses = 0;

  /** The statements `work` sends, whether it reached for Prisma's client, and its result. */
  const record = async <T>(work: () => Promise<T>): Promise<{ statements: string[]; prismaUses: number; result: T }> => {
    RecordingClient.sent = [];
    prismaUses = 0;
    const result = await work();
    return { statements: RecordingClient.sent.map((s) => s.trim().split(/\s+/).slice(0, 3).join(' ')), prismaUses, result };
  };

  beforeAll(async () => {
    seeding = createDatabase(env.config, { poolSize: 2 });
    const seeded = await seedDemoWorkspaceIfEmpty(seeding, env.config);
    assert.ok(seeded);
    workspaceId = seeded.workspaceId;
    memberId = (await seeding.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId } })).id;
    const credentialId = (await seeding.prisma.credential.findFirstOrThrow({ where: { workspaceId, memberId } })).id;
    auth = { workspaceId, credential: { id: credentialId }, principal: { type: 'member', id: memberId }, effectiveScopes: V1_SCOPES } as unknown as V1AuthContext;
    tagIds = [];
    for (const name of ['a', 'b', 'c']) tagIds.push((await seeding.prisma.tag.create({ data: { workspaceId, name } })).id);
    projectId = (await seeding.prisma.project.create({ data: { workspaceId, name: 'P' } })).id;
    listId = (await seeding.prisma.list.create({ data: { workspaceId, name: 'L' } })).id;
    pool = new pg.Pool({ connectionString: env.databaseUrl, max: 2, Client: RecordingClient });
    pool.on('error', () => undefined);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    database = {
      // Counted: the hot paths must not reach for Prisma's client (about twice pg's CPU per statement).
      get prisma() {
        prismaUses++;
        return prisma;
      },
      // The same pool's thinnest path, as createDatabase's: recorded like every statement.
      // The wake-ups after commit are the pool's, sent apart from the operation (outbox-wakes.ts): not counted here.
      ...poolStatements(pool, { transactionTimeoutMs: 15_000, wakeOutbox: () => undefined }),
      ping: async () => undefined,
      wakesSent: async () => undefined,
      changeAuthorization: (_workspaceId, change) => change(),
      close: async () => undefined,
    };
    ctx = { database, config: env.config, now: () => new Date() };
    for (let i = 0; i < 120; i++) await invoke(createTask, operationOf(ctx, auth, null), { title: `Task ${i}`, tagIds: tagIds.slice(0, i % 4) });
  });

  afterAll(async () => {
    await database?.prisma.$disconnect();
    await pool?.end();
    await seeding?.close();
  });

  it('getTask is one statement, and shows the acting member its running timer', async () => {
    const [first] = (await invoke(listTasks, operationOf(ctx, auth, null), { limit: 5 })).items;
    assert.ok(first);
    await seeding.prisma.timeEntry.create({ data: { workspaceId, memberId, taskId: first.id, startedAt: new Date('2026-01-02T03:04:05.678Z') } });
    const { statements, result } = await record(() => invoke(getTask, operationOf(ctx, auth, null), { id: first.id }));
    assert.equal(statements.length, 1, statements.join('\n'));
    assert.equal(result.timerStartedAt, '2026-01-02T03:04:05.678Z');
    assert.deepEqual({ ...result, timerStartedAt: null }, first);
    await seeding.prisma.timeEntry.deleteMany({ where: { workspaceId, memberId } });
  });

  it('a page of 100 tasks with their tags is one statement', async () => {
    const { statements, result } = await record(() => invoke(listTasks, operationOf(ctx, auth, null), { limit: 100 }));
    assert.equal(statements.length, 1, statements.join('\n'));
    assert.equal(result.items.length, 100);
    assert.ok(result.nextCursor);
    assert.ok(result.items.some((t) => t.tagIds.length === 3));
    const next = await record(() => invoke(listTasks, operationOf(ctx, auth, null), { limit: 100, cursor: result.nextCursor! }));
    assert.equal(next.statements.length, 1);
    assert.ok(next.result.items.length >= 20);
  });

  it('a create naming no other resource is one statement (no transaction), two with its Idempotency-Key, none through Prisma', async () => {
    const plain = await record(() => invoke(createTask, operationOf(ctx, auth, 'r1'), { title: 'Plain', priority: 'high', dueAt: '2026-03-04T23:30:00+02:00', estimateMinutes: 5 }));
    assert.equal(plain.statements.length, 1, plain.statements.join('\n'));
    assert.equal(plain.prismaUses, 0);
    const body = { title: 'Keyed' };
    let recordId = '';
    const keyed = await record(async () => {
      const claim = await claimIdempotencyKey(database, {
        workspaceId,
        credentialId: auth.credential.id,
        operationId: 'createTask',
        key: randomUUID(),
        fingerprint: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
        now: new Date(),
        lockMs: 60_000,
        retentionMs: 86_400_000,
      });
      assert.equal(claim.outcome, 'claimed');
      recordId = claim.outcome === 'claimed' ? claim.recordId : '';
      // The create's own statement completes the key with its result (runIdempotent then has nothing to store).
      return invoke(createTask, operationOf(ctx, auth, 'r2', { idempotencyKey: { workspaceId, recordId, mode: 'run' } }), { ...body });
    });
    assert.equal(keyed.statements.length, 2, keyed.statements.join('\n'));
    const key = await seeding.prisma.idempotencyRecord.findFirstOrThrow({ where: { workspaceId, id: recordId }, select: { state: true, completedBy: true, result: true } });
    assert.deepEqual(key, { state: 'completed', completedBy: 'mutation', result: keyed.result });
    assert.equal(keyed.prismaUses, 0);
    // The stored row and event are what the create answered.
    assert.deepEqual(await invoke(getTask, operationOf(ctx, auth, null), { id: plain.result.id }), plain.result);
    const stored = await seeding.prisma.task.findFirstOrThrow({ where: { workspaceId, id: plain.result.id }, select: { dueDate: true } });
    assert.equal(stored.dueDate?.toISOString(), '2026-03-04T00:00:00.000Z');
    const [event] = await seeding.prisma.outboxEvent.findMany({ where: { workspaceId, aggregateId: keyed.result.id } });
    assert.equal(event?.eventType, 'task.created');
    assert.deepEqual(event?.payload, { task: keyed.result, requestId: 'r2' });
  });

  it('a create checks what it names first, in a transaction with the insert only for an assignee (whose row it locks)', async () => {
    const { statements, result } = await record(() => invoke(createTask, operationOf(ctx, auth, null), { title: 'Refs', projectId, listId, tagIds: [tagIds[2]!, tagIds[0]!] }));
    // project, list, tags, then the insert
    assert.equal(statements.length, 4, statements.join('\n'));
    assert.equal(prismaUses, 0);
    assert.ok(!statements.includes('BEGIN'));
    assert.deepEqual(result.tagIds, [tagIds[0]!, tagIds[2]!].sort());
    assert.deepEqual(await invoke(getTask, operationOf(ctx, auth, null), { id: result.id }), result);
    const assigned = await record(() => invoke(createTask, operationOf(ctx, auth, null), { title: 'Assigned', assigneeIds: [memberId] }));
    assert.deepEqual(assigned.statements, ['BEGIN', 'SELECT id::text AS', 'WITH task AS', 'COMMIT']);
    assert.deepEqual(await invoke(getTask, operationOf(ctx, auth, null), { id: assigned.result.id }), assigned.result);
    await assert.rejects(invoke(createTask, operationOf(ctx, auth, null), { title: 'Bad', tagIds: [tagIds[0]!, randomUUID()] }), (error: { code?: string }) => error.code === 'validation_failed');
  });

  it('an If-Match update reads the task back in one statement', async () => {
    const task: TaskView = await invoke(createTask, operationOf(ctx, auth, null), { title: 'To update' });
    const { statements, result } = await record(() => invoke(updateTask, operationOf(ctx, auth, null), { id: task.id, expectedRevision: 1, title: 'Updated' }));
    // BEGIN, the guarded UPDATE, the read back, the outbox event, COMMIT.
    assert.equal(statements.length, 5, statements.join('\n'));
    assert.equal(result.revision, '2');
    assert.equal(result.title, 'Updated');
  });
});
