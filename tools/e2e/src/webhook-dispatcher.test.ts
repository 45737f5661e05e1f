import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { V1_SCOPES } from '@workcell/credentials';
import { appendOutboxEvent, claimDueDeliveries, type Database, recordAttemptOutcome, inTransaction } from '@workcell/db';
import { JobQueues } from '@workcell/jobs';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { QueueRuntime } from '@workcell/worker';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi } from './support/v1.js';

/**
 * The signed-delivery dispatcher (docs/webhooks.md "Delivery"): the database is the queue, claimed fairly per
 * subscription under a lease; a per-subscription circuit breaker spaces attempts to a failing receiver by the retry
 * schedule; a receiver failing for the whole schedule disables its subscription. Scaled down here: 6 slots per
 * worker, 2 per subscription, a schedule of 300 ms, 600 ms, 1.2 s (4 attempts, 2.1 s in all), the breaker after 3
 * consecutive failures. The receiver is plain HTTP on 127.0.0.1 and holds the requests a test wants in flight.
 */
const env = useTestEnvironment({
  WEBHOOK_DELIVERY_CONCURRENCY: '6',
  WEBHOOK_SUBSCRIPTION_CONCURRENCY: '2',
  WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1200ms',
  WEBHOOK_BREAKER_THRESHOLD: '3',
  WEBHOOK_DELIVERY_TIMEOUT_MS: '2000',
});

describe('webhook dispatcher: fair share, circuit breaker, leases', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let admin: string;
  let server: Server;
  let base: string;
  /** Every request the receiver got: its path, webhook-id and arrival time. */
  const received: { path: string; webhookId: string; at: number }[] = [];
  /** Requests held unanswered, by path. */
  const held = new Map<string, ServerResponse[]>();
  /** Requests currently held, by path (those answered or given up on are not counted). */
  const open = (path: string) => (held.get(path) ?? []).filter((res) => !res.destroyed && !res.writableEnded).length;
  const maxOpen = new Map<string, number>();

  const release = (path: string) => {
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
  const emit = async (eventType: string, count = 1) =>
    inTransaction(database, async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const aggregateId = randomUUID();
        await appendOutboxEvent(tx, { actor: null, cause: null, workspaceId, aggregateType: eventType.split('.')[0]!, aggregateId, eventType, payload: {} });
        ids.push((await tx.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId, aggregateId } })).id);
      }
      return ids;
    });
  const rowsOf = (subscriptionId: string) => database.prisma.webhookDelivery.findMany({ where: { workspaceId, subscriptionId }, orderBy: { id: 'asc' } });
  const subscriptionRow = (id: string) => database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId, id } });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const path = req.url ?? '/';
        // A legacy v0 delivery has no webhook-* headers: its event id is the body's `_id`.
        const webhookId = req.headers['webhook-id'] ?? (JSON.parse(body) as { _id: string })._id;
        received.push({ path, webhookId: String(webhookId), at: Date.now() });
        // /held… and /dead: held (a receiver that accepts and never answers); /fail: always 500.
        if (path.startsWith('/held') || path === '/dead') {
          held.set(path, [...(held.get(path) ?? []), res]);
          maxOpen.set(path, Math.max(maxOpen.get(path) ?? 0, open(path)));
          return;
        }
        res.writeHead(path === '/fail' || path === '/failing' ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cell = await startV1Cell(env, { instances: 1 });
    ({ database, workspaceId } = cell);
    admin = await cell.mint(V1_SCOPES);
  });

  afterAll(async () => {
    for (const path of [...held.keys()]) release(path);
    await cell?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('a delivery that succeeds is claimed and attempted once, and never becomes a BullMQ job', async () => {
    const hook = await subscribe('/ok', ['tag.created']);
    const [eventId] = await emit('tag.created');
    const row = await waitFor('the delivery to succeed', async () => (await rowsOf(hook)).find((d) => d.status === 'succeeded'));
    assert.deepEqual([row.attempt, row.responseStatusCode, row.eventId, row.leaseUntil, row.nextAttemptAt], [1, 200, eventId, null, null]);
    assert.deepEqual(
      requestsTo('/ok').map((r) => r.webhookId),
      [eventId],
    );
    const queues = new JobQueues(env.config);
    try {
      const counts = await queues.queue('deliveries').getJobCounts();
      assert.ok(
        Object.values(counts).every((count) => count === 0),
        `signed deliveries use no queue: ${JSON.stringify(counts)}`,
      );
    } finally {
      await queues.close();
    }
  });

  it('a receiver that never answers holds at most its own share of slots, while another subscription is delivered meanwhile', async () => {
    const stuck = await subscribe('/held', ['tag.updated']);
    const healthy = await subscribe('/ok', ['tag.updated']);
    const ids = await emit('tag.updated', 8);
    // The healthy subscription gets all eight while the held one has two in flight and six waiting.
    await waitFor('the healthy receiver to get all eight', async () => (await rowsOf(healthy)).filter((d) => d.status === 'succeeded').length === 8);
    await waitFor('two attempts at the held receiver', () => open('/held') === 2);
    assert.equal(maxOpen.get('/held'), 2, 'never more than WEBHOOK_SUBSCRIPTION_CONCURRENCY in flight');
    const stuckRows = await rowsOf(stuck);
    assert.equal(stuckRows.filter((d) => d.leaseUntil !== null).length, 2, 'two leased');
    assert.equal(stuckRows.filter((d) => d.attempt === 0).length, 6, 'six not attempted yet');
    // Released, the held receiver gets the rest, still two at a time.
    for (let round = 0; round < 8 && (await rowsOf(stuck)).some((d) => d.status !== 'succeeded'); round++) {
      release('/held');
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitFor('the held subscription’s deliveries to succeed', async () => {
      release('/held');
      return (await rowsOf(stuck)).every((d) => d.status === 'succeeded');
    });
    assert.equal(maxOpen.get('/held'), 2);
    assert.deepEqual(new Set(requestsTo('/held').map((r) => r.webhookId)), new Set(ids));
  });

  it('after consecutive failures the breaker rests the subscription for the schedule’s delays, one probe at a time; failing for the whole schedule disables it', async () => {
    const hook = await subscribe('/failing', ['tag.archived']);
    const ids = await emit('tag.archived', 6);
    const disabled = await waitFor(
      'the subscription to be disabled',
      async () => {
        const row = await subscriptionRow(hook);
        return row.status === 'disabled' && row;
      },
      30_000,
    );
    assert.equal(disabled.disabledReason, 'receiver_failing');
    assert.equal(await database.prisma.auditEvent.count({ where: { workspaceId, targetId: hook, action: 'webhook.disabled' } }), 1);
    assert.equal((await cell.outbox(hook, 'webhook.disabled')).length, 1);
    const view = (await callApi<{ data: { status: string; disabledReason: string; failingSince: string | null } }>(cell.v1, 'GET', `/v1/webhooks/${hook}`, admin)).body.data;
    assert.deepEqual([view.status, view.disabledReason], ['disabled', 'receiver_failing']);
    assert.ok(view.failingSince !== null);
    // Nothing is left pending: each delivery ended failed, keeping its last failure (or subscription_disabled).
    const rows = await rowsOf(hook);
    assert.ok(rows.every((d) => d.status === 'failed'));
    for (const d of rows) assert.equal(d.failureReason, d.attempt === 0 ? 'subscription_disabled' : 'http_status');
    // Two in flight per subscription: the breaker opens at the third consecutive failure with at most one more
    // attempt in flight, so from the fifth attempt on they come one at a time, each after a rest of at least
    // 0.8 × 300 ms (the schedule's first delay, with its jitter: a lower bound; a busy machine only makes it later).
    const attempts = requestsTo('/failing')
      .filter((r) => ids.includes(r.webhookId))
      .map((r) => r.at);
    assert.ok(attempts.length >= 5, `${attempts.length} attempts`);
    for (let i = 5; i < attempts.length; i++) assert.ok(attempts[i]! - attempts[i - 1]! >= 0.8 * 300 - 5, `attempt ${i + 1} came ${attempts[i]! - attempts[i - 1]!} ms after the one before`);
    // Total attempts stay far below what six deliveries × four attempts would have sent without the breaker.
    assert.ok(attempts.length < 24, `${attempts.length} attempts`);
  });

  it('re-enabling closes the breaker; the owner disabling ends the pending deliveries', async () => {
    const hook = await subscribe('/held', ['list.created']);
    await emit('list.created', 4);
    await waitFor('two in flight', () => open('/held') >= 2);
    const version = (await callApi<{ data: { version: string } }>(cell.v1, 'GET', `/v1/webhooks/${hook}`, admin)).body.data.version;
    const patched = await callApi<{ data: { version: string } }>(cell.v1, 'PATCH', `/v1/webhooks/${hook}`, admin, { expectedVersion: version, status: 'disabled' });
    assert.equal(patched.status, 200);
    const rows = await rowsOf(hook);
    assert.ok(
      rows.every((d) => d.status === 'failed'),
      'none stays pending behind a disabled subscription',
    );
    assert.ok(rows.filter((d) => d.attempt === 0).every((d) => d.failureReason === 'subscription_disabled'));
    await database.prisma.webhookSubscription.updateMany({
      where: { workspaceId, id: hook },
      data: { consecutiveFailures: 9, failingSince: new Date(), breakerUntil: new Date(Date.now() + 3_600_000) },
    });
    const enabled = await callApi<{ data: { status: string; failingSince: string | null } }>(cell.v1, 'PATCH', `/v1/webhooks/${hook}`, admin, {
      expectedVersion: patched.body.data.version,
      status: 'active',
    });
    assert.equal(enabled.status, 200);
    assert.deepEqual([enabled.body.data.status, enabled.body.data.failingSince], ['active', null]);
    const row = await subscriptionRow(hook);
    assert.deepEqual([row.consecutiveFailures, row.breakerUntil], [0, null]);
    release('/held');
  });

  it('recovered deliveries are attempted again oldest first at the subscription’s share', async () => {
    const hook = await subscribe('/held-recovery', ['contact.created']);
    // Four events, each fanned out by its own relay run, so each delivery is older than the next.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(...(await emit('contact.created')));
      await waitFor('the delivery row', async () => (await rowsOf(hook)).length === i + 1);
    }
    await waitFor('two attempts in flight', () => open('/held-recovery') === 2);
    const version = (await callApi<{ data: { version: string } }>(cell.v1, 'GET', `/v1/webhooks/${hook}`, admin)).body.data.version;
    const disabled = await callApi<{ data: { version: string } }>(cell.v1, 'PATCH', `/v1/webhooks/${hook}`, admin, { expectedVersion: version, status: 'disabled' });
    assert.equal(disabled.status, 200);
    assert.ok((await rowsOf(hook)).every((d) => d.status === 'failed'));
    const before = requestsTo('/held-recovery').length;
    const recovered = await callApi<{ data: { recoveredDeliveries: number } }>(cell.v1, 'PATCH', `/v1/webhooks/${hook}`, admin, {
      expectedVersion: disabled.body.data.version,
      status: 'active',
      recoverSince: new Date(Date.now() - 60_000).toISOString(),
    });
    assert.equal(recovered.body.data.recoveredDeliveries, 4, JSON.stringify(recovered.body));
    // The share is two: the two oldest are in flight again, the two newer wait for them.
    await waitFor('two recovered attempts in flight', () => requestsTo('/held-recovery').length === before + 2);
    const sentAgain = () =>
      requestsTo('/held-recovery')
        .slice(before)
        .map((r) => r.webhookId);
    assert.deepEqual(new Set(sentAgain()), new Set(ids.slice(0, 2)), 'the two oldest first');
    await waitFor('the recovered deliveries to succeed', async () => {
      release('/held-recovery');
      return (await rowsOf(hook)).every((d) => d.status === 'succeeded');
    });
    assert.deepEqual(new Set(sentAgain().slice(2)), new Set(ids.slice(2)), 'then the two newer');
    assert.equal(sentAgain().length, 4, 'each once');
  });

  it('a legacy v0 webhook that never answers holds at most its share of the legacy deliveries, while another is delivered meanwhile', async () => {
    const legacyWebhook = (path: string, event: string) => database.prisma.legacyWebhook.create({ data: { workspaceId, url: `${base}${path}`, events: [event] } });
    const silent = await legacyWebhook('/held-legacy', 'call_note.created');
    const healthy = await legacyWebhook('/ok-legacy', 'call_note.updated');
    // More events than the worker has legacy slots (6): without a share, the silent receiver would hold them all.
    const ids = await emit('call_note.created', 8);
    await waitFor('two attempts at the silent receiver', () => open('/held-legacy') === 2);
    const [healthyId] = await emit('call_note.updated');
    await waitFor('the healthy legacy delivery', () => requestsTo('/ok-legacy').some((r) => r.webhookId === healthyId));
    assert.equal(maxOpen.get('/held-legacy'), 2, 'never more than WEBHOOK_SUBSCRIPTION_CONCURRENCY in flight');
    // Answered, the silent receiver's other events get their turn (a slot freed is handed over), still two at a time.
    await waitFor('every event at the silent receiver', () => {
      release('/held-legacy');
      return ids.every((id) => requestsTo('/held-legacy').some((r) => r.webhookId === id));
    });
    assert.equal(maxOpen.get('/held-legacy'), 2);
    await database.prisma.legacyWebhook.updateMany({ where: { workspaceId, id: { in: [silent.id, healthy.id] } }, data: { archivedAt: new Date() } });
  });

  it('a claimed attempt lost with its process is claimed again when its lease ends, numbered on; a stale outcome is not recorded', async () => {
    const hook = await subscribe('/ok', ['contact.created']);
    // Paused (breaker resting an hour) while the row is made, so the worker leaves it alone.
    await database.prisma.webhookSubscription.updateMany({ where: { workspaceId, id: hook }, data: { breakerUntil: new Date(Date.now() + 3_600_000) } });
    const [eventId] = await emit('contact.created');
    const row = await waitFor('the delivery row', async () => (await rowsOf(hook))[0]);
    // As a dispatcher that claimed it and died leaves it: attempt 1 counted, leased for 300 ms.
    const leaseEnd = new Date(Date.now() + 300);
    await database.prisma.webhookDelivery.updateMany({ where: { workspaceId, id: row.id }, data: { attempt: 1, leaseUntil: leaseEnd, nextAttemptAt: leaseEnd } });
    await database.prisma.webhookSubscription.updateMany({ where: { workspaceId, id: hook }, data: { breakerUntil: null } });
    const done = await waitFor('the delivery to succeed', async () => (await rowsOf(hook)).find((d) => d.status === 'succeeded'));
    assert.equal(done.attempt, 2, 'the lost attempt counts');
    assert.deepEqual(requestsTo('/ok').filter((r) => r.webhookId === eventId).length, 1);
    // An outcome for an attempt that is no longer the row's latest changes nothing.
    const stale = await recordAttemptOutcome(
      database,
      { workspaceId, id: row.id, attempt: 1, status: 'failed', retryInMs: null, responseStatusCode: 500, responseTimeMs: 1, error: 'stale', failureReason: 'http_status', exchange: null },
      { threshold: 3, scheduleMs: [300] },
    );
    assert.equal(stale.recorded, false);
    assert.equal((await rowsOf(hook))[0]!.status, 'succeeded');
  });

  it('two dispatchers never claim the same delivery, and together keep a subscription within its share', async () => {
    const hook = await subscribe('/dead', ['contact_group.created']);
    // Paused (breaker resting an hour) while rows are made, so the worker claims none of them.
    await database.prisma.webhookSubscription.updateMany({ where: { workspaceId, id: hook }, data: { breakerUntil: new Date(Date.now() + 3_600_000) } });
    await emit('contact_group.created', 10);
    await waitFor('ten rows', async () => (await rowsOf(hook)).length === 10);
    await database.prisma.webhookSubscription.updateMany({ where: { workspaceId, id: hook }, data: { breakerUntil: null } });
    const limits = { take: 10, perSubscription: 2, breakerThreshold: 3, leaseMs: 60_000 };
    const [a, b] = await Promise.all([claimDueDeliveries(database, limits), claimDueDeliveries(database, limits)]);
    const mine = [...a, ...b].filter((d) => d.subscriptionId === hook);
    assert.equal(new Set(mine.map((d) => d.id)).size, mine.length, 'no delivery claimed twice');
    const leased = (await rowsOf(hook)).filter((d) => d.leaseUntil !== null && d.leaseUntil > new Date());
    assert.ok(leased.length <= 2, `${leased.length} in flight for one subscription`);
    await database.prisma.webhookSubscription.updateMany({ where: { workspaceId, id: hook }, data: { status: 'disabled' } });
  });

  it('a worker shutting down lets its attempts in flight end and record themselves', async () => {
    const runtime = cell.worker.app.get(QueueRuntime);
    const hook = await subscribe('/dead', ['product.created']);
    await emit('product.created');
    await waitFor('the attempt at the receiver', async () => (await rowsOf(hook))[0]?.leaseUntil != null && runtime.dispatcher.size >= 1);
    await runtime.dispatcher.close();
    // Closing waited for the attempt: it recorded its timeout (the receiver never answers) and its next due time.
    const [row] = await rowsOf(hook);
    assert.deepEqual([row!.status, row!.failureReason, row!.leaseUntil], ['pending', 'timeout', null]);
    assert.ok(row!.nextAttemptAt !== null);
  });
});
