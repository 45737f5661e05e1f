import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { V1_SCOPES } from '@workcell/credentials';
import { appendOutboxEvent, type Database, inTransaction } from '@workcell/db';
import { createLogger } from '@workcell/http';
import { JobQueues } from '@workcell/jobs';
import { TcpProxy, testConfig, useTestEnvironment, waitFor } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi } from './support/v1.js';

/**
 * The webhook relay is woken by the commit (LISTEN/NOTIFY), not by its poll (docs/webhooks.md "Delivery engine"). The
 * worker here polls every 10 minutes, so a delivery that arrives within a test's ordinary wait was woken by the
 * commit. Its LISTEN session goes through a TcpProxy (DATABASE_LISTEN_URL), everything else straight to
 * PostgreSQL: cutting or black-holing the proxy takes the listener down and nothing else. Then one tick of the
 * poll (the scheduler's own job, enqueued here) still delivers, and the listener comes back by itself and
 * catches up with what was committed while it was down.
 */

const env = useTestEnvironment();

describe('webhook relay wake-up', () => {
  let proxy: TcpProxy;
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let server: Server;
  let queues: JobQueues;
  let logs = '';
  /** webhook-id (event id) of every request the receiver got, in arrival order. */
  const received: string[] = [];

  /** Appends one tag.created event in its own transaction, as a domain write would; returns the event id. */
  const emit = async () =>
    inTransaction(database, async (tx) => {
      const aggregateId = randomUUID();
      await appendOutboxEvent(tx, { actor: null, cause: null, workspaceId, aggregateType: 'tag', aggregateId, eventType: 'tag.created', payload: { tag: { id: aggregateId } } });
      return (await tx.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId, aggregateId } })).id;
    });
  const delivered = (eventId: string) => waitFor(`the delivery of ${eventId}`, () => received.includes(eventId));
  /** One tick of the safety-net poll: the job its scheduler enqueues every WEBHOOK_RELAY_POLL_MS. */
  const pollOnce = () => queues.enqueue('webhooks.relay', {});

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['webhook-id']));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = await TcpProxy.start(env.databaseUrl);
    const config = testConfig({
      DATABASE_URL: env.databaseUrl,
      REDIS_PREFIX: env.redisPrefix,
      DATABASE_LISTEN_URL: proxy.rewrite(env.databaseUrl),
      WEBHOOK_RELAY_POLL_MS: String(10 * 60_000),
    });
    const sink = () => new Writable({ write: (chunk, _enc, done) => ((logs += chunk.toString()), done()) });
    cell = await startV1Cell(
      { config, databaseUrl: env.databaseUrl, redisPrefix: env.redisPrefix },
      { logger: (c, service) => (service === 'worker' ? createLogger({ ...c, logLevel: 'warn' }, service, sink()) : undefined) },
    );
    ({ database, workspaceId } = cell);
    queues = new JobQueues(config);
    const admin = await cell.mint(V1_SCOPES);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const reply = await callApi(cell.v1, 'POST', '/v1/webhooks', admin, { url, eventTypes: ['tag.created'] });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
  });

  afterAll(async () => {
    await queues?.close();
    await cell?.close();
    await proxy?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('delivers on the commit, with the poll 10 minutes away', async () => {
    const first = await emit();
    await delivered(first);
    // A burst, each event its own commit: every one arrives, none twice.
    const burst = await Promise.all(Array.from({ length: 20 }, () => emit()));
    for (const id of burst) await delivered(id);
    assert.equal(received.filter((id) => [first, ...burst].includes(id)).length, 21, 'each event delivered once');
  });

  it('with the listener cut, the poll still delivers; the listener reconnects and catches up', async () => {
    await proxy.cut();
    const missed = await emit();
    await pollOnce();
    await delivered(missed);
    assert.equal(proxy.state, 'cut', 'delivered by the poll while the listener was down');

    const whileDown = await emit();
    await proxy.restore();
    // No poll: the listener's reconnection runs the relay for what was committed while it was down.
    await delivered(whileDown);
    const after = await emit();
    await delivered(after);
  });

  it('a black-holed listener is found by its heartbeat and replaced; the poll covers the gap', async () => {
    await waitFor('the listener to be up again', async () => {
      const probe = await emit();
      return waitFor('a woken delivery', () => received.includes(probe), 5_000).catch(() => false);
    });
    logs = '';
    await proxy.blackhole();
    const missed = await emit();
    await pollOnce();
    await delivered(missed);
    // Nothing closes a partitioned session: only the listener's own heartbeat notices it.
    await waitFor('the heartbeat to give up on the session', () => /outbox listener lost/.test(logs) && /did not answer/.test(logs));
    const whileDown = await emit();
    await proxy.restore();
    await delivered(whileDown);
    const after = await emit();
    await delivered(after);
  });
});
