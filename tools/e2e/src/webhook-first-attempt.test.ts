import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queue } from 'bullmq';
import { V1_SCOPES } from '@workcell/credentials';
import { appendOutboxEvent, type Database, type PrismaClient } from '@workcell/db';
import { deliverWebhook, invoke } from '@workcell/domain';
import { JobQueues } from '@workcell/jobs';
import { type RunningApp, startApp, useTestEnvironment, waitFor } from '@workcell/testing';
import { createWorkerApp, QueueRuntime } from '@workcell/worker';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi } from './support/v1.js';

/**
 * A new signed delivery's first attempt runs in the worker's process right after the relay's commit; BullMQ holds
 * only its retries, its first attempt when the in-process pool is full, and its revival (docs/webhooks.md "Delivery
 * engine"). Attempts are numbered from the delivery's row, so the two paths count one sequence. The worker runs
 * one in-process attempt at a time here (WEBHOOK_DELIVERY_CONCURRENCY=1) and two attempts per delivery; the
 * receiver is plain HTTP on 127.0.0.1 and holds the requests a test wants in flight until it releases them.
 */

const env = useTestEnvironment({ WEBHOOK_DELIVERY_CONCURRENCY: '1', WEBHOOK_DELIVERY_ATTEMPTS: '2', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_DELIVERY_TIMEOUT_MS: '2000' });


describe('webhook first attempt in the worker, BullMQ for retries', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let admin: string;
  let runtime: QueueRuntime;
  let queues: JobQueues;
  let deliveries: Queue;
  let server: Server;
  let base: string;
  /** Every request the receiver got: its path and webhook-id. */
  const received: { path: string; webhookId: string }[] = [];
  /** Requests held unanswered, by path. */
  const held = new Map<string, ServerResponse[]>();
  const hits = new Map<string, number>();

  const release = (path: string) => {
    // A request the worker gave up on (its timeout) has no one to answer.
    for (const res of held.get(path) ?? []) if (!res.destroyed) res.writeHead(200).end();
    held.delete(path);
  };
  const requestsTo = (path: string) => received.filter((r) => r.path === path);
  const subscribe = async (path: string, eventTypes: string[]) => {
    const reply = await callApi<{ data: { id: string } }>(cell.v1, 'POST', '/v1/webhooks', admin, { url: `${base}${path}`, eventTypes });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  /** Appends events in one transaction, as a domain write would; returns their ids. */
  const emit = async (...eventTypes: string[]) =>
    database.prisma.$transaction(async (tx) => {
      const ids: string[] = [];
      for (const eventType of eventTypes) {
        const aggregateId = randomUUID();
        await appendOutboxEvent(tx, { workspaceId, aggregateType: eventType.split('.')[0]!, aggregateId, eventType, payload: {} });
        ids.push((await tx.outboxEvent.findFirstOrThrow({ where: { workspaceId, aggregateId } })).id);
      }
      return ids;
    });
  const rowsOf = (subscriptionId: string) => database.prisma.webhookDelivery.findMany({ where: { workspaceId, subscriptionId }, orderBy: { id: 'asc' } });
  /** The subscription's delivery rows once its first has ended with `status`. */
  const rowsEnded = (subscriptionId: string, status: 'succeeded' | 'failed', what: string) =>
    waitFor(what, async () => {
      const rows = await rowsOf(subscriptionId);
      return rows[0]?.status === status && rows;
    });
  const jobOf = (deliveryId: string) => deliveries.getJob(`webhooks.deliver.${deliveryId}`);
  const historyOf = async (subscriptionId: string) =>
    (await callApi<{ data: { status: string; attempts: number; failureReason: string | null }[] }>(cell.v1, 'GET', `/v1/webhooks/${subscriptionId}/deliveries`, admin)).body.data;
  /**
   * A pending row the relay did not just hand over, as a crash leaves one behind (no attempt running, no job):
   * for an event of a type the subscription does not take, so the relay itself fans nothing out for it.
   */
  const leavePendingRow = async (subscriptionId: string, row: { updatedAgoMs: number; attempt?: number; nextRetryAgoMs?: number }) => {
    const [eventId] = await emit('contact.created');
    await waitFor('the event to be published', async () => (await database.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId, id: eventId! } })).publishedAt !== null);
    const { ownerCredentialId } = await database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId, id: subscriptionId } });
    const updatedAt = new Date(Date.now() - row.updatedAgoMs);
    const nextRetryAt = row.nextRetryAgoMs === undefined ? null : new Date(Date.now() - row.nextRetryAgoMs);
    const id = randomUUID();
    await database.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (workspace_id, id, subscription_id, owner_credential_id, event_id, event_type, attempt, status,
                                      failure_reason, next_retry_at, created_at, updated_at)
      VALUES (${workspaceId}::uuid, ${id}::uuid, ${subscriptionId}::uuid, ${ownerCredentialId}::uuid, ${eventId}::uuid, 'contact.created',
              ${row.attempt ?? 1}::int, 'pending', ${nextRetryAt === null ? null : 'http_status'}::text, ${nextRetryAt}::timestamptz, ${updatedAt}::timestamptz, ${updatedAt}::timestamptz)`;
    return { id, eventId: eventId! };
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, webhookId: String(req.headers['webhook-id']) });
        const n = (hits.get(path) ?? 0) + 1;
        hits.set(path, n);
        // /flaky: 500 once, then held; /pool and /stall: held; /fail: always 500.
        if (path === '/pool' || path === '/stall' || (path === '/flaky' && n > 1)) return void held.set(path, [...(held.get(path) ?? []), res]);
        res.writeHead(path === '/fail' || path === '/flaky' ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The subject is one worker's in-process pool (one slot here): a second worker, as the two-instance harness mode
    // would start, would take the relay run and the slot in its own process.
    cell = await startV1Cell(env, { instances: 1 });
    ({ database, workspaceId } = cell);
    admin = await cell.mint(V1_SCOPES);
    runtime = cell.worker.app.get(QueueRuntime);
    queues = new JobQueues(env.config);
    deliveries = queues.queue('deliveries');
  });

  afterAll(async () => {
    for (const path of [...held.keys()]) release(path);
    await queues?.close();
    await cell?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('a delivery that succeeds at its first attempt never becomes a BullMQ job', async () => {
    const hook = await subscribe('/ok', ['tag.created']);
    const [eventId] = await emit('tag.created');
    const [row] = await rowsEnded(hook, 'succeeded', 'the delivery to succeed');
    assert.deepEqual([row!.attempt, row!.responseStatusCode, row!.eventId], [1, 200, eventId]);
    assert.deepEqual(requestsTo('/ok').map((r) => r.webhookId), [eventId]);
    assert.equal(await jobOf(row!.id), undefined);
    const counts = await deliveries.getJobCounts();
    assert.ok(Object.values(counts).every((count) => count === 0), `the deliveries queue never held a job: ${JSON.stringify(counts)}`);
  });

  it('a receiver failing once gets attempt 1 in-process and attempt 2 from the queue; the history shows both', async () => {
    const hook = await subscribe('/flaky', ['tag.updated']);
    const [eventId] = await emit('tag.updated');
    // Attempt 1 failed and recorded itself; attempt 2 is at the receiver, held there.
    const [first] = await waitFor('attempt 1 to be recorded', async () => {
      const rows = await rowsOf(hook);
      return rows[0]?.nextRetryAt && rows;
    });
    assert.deepEqual([first!.status, first!.attempt, first!.responseStatusCode, first!.failureReason], ['pending', 1, 500, 'http_status']);
    assert.deepEqual(
      (await historyOf(hook)).map((d) => [d.status, d.attempts, d.failureReason]),
      [['pending', 1, 'http_status']],
    );
    await waitFor('attempt 2 at the receiver', () => requestsTo('/flaky').length === 2);
    // The job is the retry alone: queued by the failed in-process attempt, delayed by the first backoff, allowed
    // the one attempt left, and on its first run now (attempt 1 never was a job's run).
    const job = await jobOf(first!.id);
    assert.ok(job, 'the retry is a job');
    assert.deepEqual([job.opts.attempts, job.opts.delay, job.opts.backoff], [1, 100, { type: 'exponential', delay: 200 }]);
    assert.equal(job.attemptsMade, 0);
    release('/flaky');
    const [done] = await rowsEnded(hook, 'succeeded', 'attempt 2 to succeed');
    assert.deepEqual([done!.attempt, done!.responseStatusCode, done!.failureReason, done!.nextRetryAt], [2, 200, null, null]);
    assert.deepEqual(
      (await historyOf(hook)).map((d) => [d.status, d.attempts]),
      [['succeeded', 2]],
    );
    assert.deepEqual(requestsTo('/flaky').map((r) => r.webhookId), [eventId, eventId], 'the same webhook-id on both attempts');
    assert.equal(await (await jobOf(first!.id))!.getState(), 'completed');
  });

  it('with 2 attempts, a receiver that always fails ends failed after exactly 2 attempts', async () => {
    const hook = await subscribe('/fail', ['tag.archived']);
    const [eventId] = await emit('tag.archived');
    const [row] = await rowsEnded(hook, 'failed', 'the delivery to fail');
    assert.deepEqual([row!.attempt, row!.responseStatusCode, row!.failureReason, row!.nextRetryAt], [2, 500, 'http_status', null]);
    // The job ran attempt 2 only, and completed: nothing is left that could make a third.
    const job = await jobOf(row!.id);
    assert.ok(job);
    assert.equal(job.opts.attempts, 1);
    assert.equal(await job.getState(), 'completed');
    assert.deepEqual(requestsTo('/fail').map((r) => r.webhookId), [eventId, eventId]);
  });

  it('an attempt’s own statements (load the work, record the outcome) are one each, straight through the pool', async () => {
    const hook = await subscribe('/ok', ['tag.created']);
    const row = await leavePendingRow(hook, { updatedAgoMs: 1_000 });
    const sent: string[] = [];
    const direct: Database = {
      ...database,
      prisma: new Proxy({} as PrismaClient, {
        get: (_target, key) => {
          throw new Error(`Prisma's client was used (${String(key)})`);
        },
      }),
      statement: async (query) => {
        sent.push(query.text.trim().split(/\s+/)[0]!);
        return database.statement(query);
      },
    };
    const outcome = await invoke(deliverWebhook, { database: direct, config: env.config, now: () => new Date() }, { workspaceId, deliveryId: row.id, attempts: 2, lastRun: false });
    assert.deepEqual(outcome, { status: 'succeeded' });
    assert.deepEqual(sent, ['SELECT', 'UPDATE']);
    const [done] = await rowsOf(hook);
    assert.deepEqual([done!.status, done!.attempt, done!.responseStatusCode], ['succeeded', 1, 200]);
    assert.ok(done!.updatedAt > done!.createdAt, 'the record moves updated_at, which the revival reads');
  });

  it('a job’s last run ends its delivery even when the row counted fewer attempts (a run lost to an error)', async () => {
    const hook = await subscribe('/fail', ['tag.archived']);
    const row = await leavePendingRow(hook, { updatedAgoMs: 0 });
    // A job with one run left for a row at its first attempt of two, as a run that died before recording leaves it.
    await queues.enqueue('webhooks.deliver', { workspaceId, deliveryId: row.id }, new Date(), { attempts: 1, backoffMs: 100 });
    const [done] = await rowsEnded(hook, 'failed', 'the delivery to fail');
    assert.deepEqual([done!.attempt, done!.responseStatusCode, done!.nextRetryAt], [1, 500, null]);
    assert.equal(await (await jobOf(row.id))!.getState(), 'completed');
    assert.equal(requestsTo('/fail').filter((r) => r.webhookId === row.eventId).length, 1);
  });

  it('a full in-process pool hands the delivery to the queue, which still delivers it', async () => {
    await waitFor('the in-process pool to be idle', () => runtime.firstAttempts.size === 0);
    const hook = await subscribe('/pool', ['tag.restored']);
    const ids = await emit('tag.restored', 'tag.restored');
    // One relay run, two rows: the first takes the only in-process slot and is held at the receiver; the second
    // found the pool full and went to the queue, whose job is at the receiver too.
    await waitFor('both deliveries at the receiver', () => requestsTo('/pool').length === 2);
    const rows = await rowsOf(hook);
    assert.equal(rows.length, 2);
    assert.equal(runtime.firstAttempts.size, 1);
    const jobs = await Promise.all(rows.map((r) => jobOf(r.id)));
    assert.equal(jobs.filter((j) => j !== undefined).length, 1, 'exactly one of them is a job');
    const queued = jobs.find((j) => j !== undefined)!;
    assert.deepEqual([queued.opts.attempts, queued.opts.delay ?? 0], [2, 0], 'queued as attempt 1 of 2, at once');
    release('/pool');
    const done = await waitFor('both to succeed', async () => {
      const r = await rowsOf(hook);
      return r.every((d) => d.status === 'succeeded') && r;
    });
    assert.deepEqual(done.map((d) => d.attempt), [1, 1]);
    assert.deepEqual(new Set(requestsTo('/pool').map((r) => r.webhookId)), new Set(ids));
    assert.equal(await queued.getState(), 'completed');
  });

  it('a pending row left behind by a crash (no attempt running, no job) is revived through the queue and delivered', async () => {
    const hook = await subscribe('/revived', ['tag.created']);
    // Committed by the relay, then the process died before the first attempt ended.
    const fresh = await leavePendingRow(hook, { updatedAgoMs: 5 * 60_000 });
    // Its first attempt failed and recorded itself, then the process died before queuing the retry.
    const retried = await leavePendingRow(hook, { updatedAgoMs: 5 * 60_000, attempt: 1, nextRetryAgoMs: 5 * 60_000 });
    const done = await waitFor('the revived deliveries to succeed', async () => {
      const rows = await rowsOf(hook);
      return rows.length === 2 && rows.every((d) => d.status === 'succeeded') && rows;
    });
    const byId = new Map(done.map((d) => [d.id, d]));
    assert.equal(byId.get(fresh.id)!.attempt, 1);
    assert.equal(byId.get(retried.id)!.attempt, 2, 'numbered on from the attempt the row recorded');
    const [freshJob, retriedJob] = [await jobOf(fresh.id), await jobOf(retried.id)];
    assert.ok(freshJob && retriedJob, 'both went through the queue');
    assert.deepEqual([freshJob.opts.attempts, retriedJob.opts.attempts], [2, 1]);
    assert.deepEqual(new Set(requestsTo('/revived').map((r) => r.webhookId)), new Set([fresh.eventId, retried.eventId]));
  });

  it('a worker shutting down lets its in-flight first attempt end: recorded, its retry queued', async () => {
    let second: RunningApp<Awaited<ReturnType<typeof createWorkerApp>>> | undefined;
    try {
      second = await startApp((c) => createWorkerApp(c), env.config);
      const secondRuntime = second.app.get(QueueRuntime);
      // The receiver never answers /stall: the attempt ends at the 2 s webhook timeout.
      const hook = await subscribe('/stall', ['tag.created']);
      const row = await leavePendingRow(hook, { updatedAgoMs: 0 });
      await secondRuntime.sink.deliver({ workspaceId, deliveryId: row.id });
      assert.equal(secondRuntime.firstAttempts.size, 1, 'made in that worker’s process');
      await waitFor('the attempt at the receiver', () => requestsTo('/stall').length === 1);
      await second.close();
      second = undefined;
      // Closing waited for the attempt: it recorded its timeout and queued its retry before the queues closed.
      const after = (await rowsOf(hook))[0]!;
      assert.equal(after.failureReason, 'timeout');
      assert.ok(await jobOf(row.id), 'the retry is queued');
    } finally {
      await second?.close();
    }
  });
});
