import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { configFrom } from '@workcell/config';
import { appendOutboxEvent, createDatabase, type Database, inTransaction, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import { useTestDatabase } from '@workcell/testing';
import { jobsStartedBy, type PostCommitJob } from './post-commit.js';
import { type DeliverySink, relayOutbox } from './relay.js';

/**
 * Work after commit starts from the outbox (issue 28): a request writes only its event; the relay, the outbox's one
 * consumer, enqueues the job the event starts before it marks the event published. A failed enqueue leaves the event
 * unpublished, so the next run starts the job: nothing a request acknowledged is lost.
 */
describe('post-commit work starts from the outbox', () => {
  const db = useTestDatabase();
  let database: Database;
  let workspaceId: string;
  const config = () => configFrom({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    database = createDatabase(config(), { poolSize: 2 });
    workspaceId = (await seedDemoWorkspaceIfEmpty(database, config()))!.workspaceId;
  });
  afterAll(() => database?.close());

  const sink = (start: (job: PostCommitJob) => Promise<void>): DeliverySink => ({ dispatch: () => undefined, deliverLegacy: async () => undefined, start, startAutomationRun: async () => undefined });

  it('maps the events that start work to their jobs, and no other', () => {
    const event = (eventType: string, payload: unknown = {}) => ({ id: 'e1', workspaceId: 'w1', aggregateId: 'a1', eventType, payload });
    assert.deepEqual(jobsStartedBy(event('export.created')), [{ job: 'exports.run', data: { workspaceId: 'w1', exportId: 'a1' } }]);
    assert.deepEqual(jobsStartedBy(event('project.lifecycle_requested', { operationId: 'o1', kind: 'archive' })), [{ job: 'projects.lifecycle', data: { workspaceId: 'w1', operationId: 'o1' } }]);
    for (const type of ['invitation.created', 'invitation.resent'])
      assert.deepEqual(jobsStartedBy(event(type)), [{ job: 'invitations.mail', data: { workspaceId: 'w1', invitationId: 'a1', eventId: 'e1' } }]);
    for (const type of ['task.created', 'project.lifecycle_succeeded', 'export.succeeded', 'invitation.accepted']) assert.deepEqual(jobsStartedBy(event(type)), []);
  });

  it('enqueues each job before publishing its event; a failed enqueue leaves the event for the next run', async () => {
    const exportId = randomUUID();
    const operationId = randomUUID();
    const events = await inTransaction(database, async (tx) => [
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'export', aggregateId: exportId, eventType: 'export.created', payload: {}, occurredAt: new Date(), actor: null, cause: null }),
      await appendOutboxEvent(tx, {
        workspaceId,
        aggregateType: 'project',
        aggregateId: randomUUID(),
        eventType: 'project.lifecycle_requested',
        payload: { operationId, kind: 'archive' },
        occurredAt: new Date(),
        actor: null,
        cause: null,
      }),
    ]);
    const unpublished = () => database.prisma.outboxEvent.count({ where: { workspaceId, sequence: { in: events }, publishedAt: null } });
    const ctx = { database, config: config(), now: () => new Date() };

    await assert.rejects(
      relayOutbox(
        ctx,
        sink(async () => Promise.reject(new Error('the queue is unavailable'))),
      ),
      /the queue is unavailable/,
    );
    assert.equal(await unpublished(), 2, 'not published without its job');

    const started: PostCommitJob[] = [];
    await relayOutbox(
      ctx,
      sink(async (job) => void started.push(job)),
    );
    assert.deepEqual(
      started.filter((j) => JSON.stringify(j).includes(exportId) || JSON.stringify(j).includes(operationId)),
      [
        { job: 'exports.run', data: { workspaceId, exportId } },
        { job: 'projects.lifecycle', data: { workspaceId, operationId } },
      ],
    );
    assert.equal(await unpublished(), 0);
  });
});
