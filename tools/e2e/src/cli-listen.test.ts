import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { type ServiceProcess, spawnProcess, useTestEnvironment, waitFor } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';

/**
 * `workcell listen` (issue 26) as a developer runs it, against a running cell: the built CLI as a child process
 * forwards the change feed to a local receiver; a real signed subscription of the same events goes to a second
 * receiver, and for each event the two requests are the same (body byte for byte, headers but the attempt's
 * timestamp and signature); listen's deliveries verify with the secret it printed; a restart resumes with the same
 * secret, forwarding every event once; Ctrl-C ends it with 0.
 */

const env = useTestEnvironment();
const BIN = createRequire(import.meta.url).resolve('@workcell/cli/dist/main.js');

interface Received {
  readonly headers: IncomingHttpHeaders;
  /** Header names in the order they were sent. */
  readonly names: string[];
  readonly body: string;
}

/** A local receiver answering 200, recording each request. */
async function receiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, names: req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    byId: (id: string) => received.filter((r) => r.headers['webhook-id'] === id),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The headers of a request, by name, without those that differ by nature between two requests of one event. */
const comparable = (r: Received) => Object.fromEntries(Object.entries(r.headers).filter(([name]) => !['webhook-timestamp', 'webhook-signature', 'host'].includes(name)));

describe('workcell listen against a running cell', () => {
  const cell = useV1Cell(env);
  let hook: Awaited<ReturnType<typeof receiver>>;
  let real: Awaited<ReturnType<typeof receiver>>;
  let config: string;
  const running: ServiceProcess[] = [];

  beforeAll(async () => {
    [hook, real] = [await receiver(), await receiver()];
    config = await mkdtemp(join(tmpdir(), 'workcell-listen-'));
  });
  afterAll(async () => {
    for (const p of running) await p.stop('SIGKILL');
    await hook?.close();
    await real?.close();
    if (config) await rm(config, { recursive: true, force: true });
  });

  /** `workcell listen` as a script runs it: a service account in the environment, its state under `config`. */
  const startListen = async (token: string) => {
    const listen = spawnProcess(process.execPath, [BIN, 'listen', '--forward-to', `${hook.url}/hook`], {
      PATH: '/usr/bin:/bin',
      CI: 'true',
      WORKCELL_TOKEN: token,
      WORKCELL_BASE_URL: cell.v1.url,
      XDG_CONFIG_HOME: config,
    });
    running.push(listen);
    // Caught up with the feed and following it: an event from now on is forwarded.
    await listen.waitFor(/^Ready: forwarding every event/, 30_000);
    const secret = (await listen.waitFor(/^Signing secret: whsec_/)).slice('Signing secret: '.length).trim();
    return { listen, secret };
  };
  /** listen's report lines (JSON: its stdout is a pipe). */
  const reports = (listen: ServiceProcess) =>
    listen
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { type: string; eventId: string; sequence: string; status: number | null; error: string | null });
  const stop = async (listen: ServiceProcess) => {
    assert.equal(await listen.stop('SIGINT'), 0, listen.output());
    assert.match(listen.output(), /^Stopped/m);
    assert.doesNotMatch(listen.output(), /\n\s+at /, 'no stack trace');
  };
  const call = async <T>(method: string, path: string, body?: unknown) => {
    const reply = await cell.call<{ data: T }>(method, path, cell.admin, body);
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.data;
  };
  const createTag = async (name: string) => (await call<{ id: string }>('POST', '/v1/tags', { name })).id;
  const renameTag = (id: string, name: string) => call('PATCH', `/v1/tags/${id}`, { name });
  /** The outbox events of these tags, in feed order. */
  const eventsOf = async (tags: string[]) =>
    (await cell.database.prisma.outboxEvent.findMany({ where: { workspaceId: cell.workspaceId, aggregateId: { in: tags } }, orderBy: { sequence: 'asc' } })).map((e) => ({
      id: e.id,
      type: e.eventType,
    }));

  it('forwards what a real subscription gets, verifiably signed; resumes after a restart with the same secret; Ctrl-C exits 0', async () => {
    const { token } = await cell.serviceAccount(['changes:read', 'tags:read'], [{ resourceType: 'tag', resourceId: null, access: 'read' }]);
    // Before the first listen: not forwarded (it starts from now, like stripe listen).
    await createTag('before listen');
    const first = await startListen(token);
    const subscription = await call<{ signingSecret: string }>('POST', '/v1/webhooks', { url: `${real.url}/real`, eventTypes: ['tag.created', 'tag.updated'] });

    const a = await createTag('listened a');
    await renameTag(a, 'listened a, renamed');
    const b = await createTag('listened b');
    const before = await eventsOf([a, b]);
    assert.deepEqual(
      before.map((e) => e.type),
      ['tag.created', 'tag.updated', 'tag.created'],
    );
    await waitFor('listen and the subscription to get every event', () => before.every((e) => hook.byId(e.id).length === 1 && real.byId(e.id).length >= 1));
    await first.listen.waitFor(new RegExp(before.at(-1)!.id));

    for (const event of before) {
      const [forwarded] = hook.byId(event.id);
      const [delivered] = real.byId(event.id);
      // listen's request verifies with the secret it printed, as a subscription's with its own.
      const verified = new Webhook(first.secret).verify(forwarded!.body, forwarded!.headers as Record<string, string>) as { type: string };
      assert.equal(verified.type, event.type);
      new Webhook(subscription.signingSecret).verify(delivered!.body, delivered!.headers as Record<string, string>);
      // The same request: the body byte for byte, the same headers in the same order, but this attempt's
      // timestamp and signature (and the Host each receiver is at).
      assert.equal(forwarded!.body, delivered!.body, event.type);
      assert.deepEqual(comparable(forwarded!), comparable(delivered!), event.type);
      assert.deepEqual(
        forwarded!.names.filter((n) => n !== 'host'),
        delivered!.names.filter((n) => n !== 'host'),
      );
      assert.match(forwarded!.headers['webhook-timestamp'] as string, /^\d+$/);
    }
    assert.deepEqual(
      reports(first.listen).map((r) => [r.eventId, r.type, r.status, r.error]),
      before.map((e) => [e.id, e.type, 200, null]),
      'one line per forward',
    );
    await stop(first.listen);

    // Events while listen is down are forwarded when it comes back, from where it stopped.
    const c = await createTag('while stopped');
    await renameTag(b, 'listened b, renamed');
    const second = await startListen(token);
    assert.equal(second.secret, first.secret, 'the same secret: the receiver keeps verifying');
    assert.match(second.listen.output(), /from where it stopped/);
    const after = (await eventsOf([a, b, c])).filter((e) => !before.some((x) => x.id === e.id));
    assert.deepEqual(
      after.map((e) => e.type),
      ['tag.created', 'tag.updated'],
    );
    await waitFor('listen to forward what happened while it was stopped', () => after.every((e) => hook.byId(e.id).length === 1));
    await second.listen.waitFor(new RegExp(after.at(-1)!.id));
    await stop(second.listen);

    // Each event exactly once, in feed order, across both runs; nothing else (nor the tag made before the first run).
    assert.deepEqual(
      hook.received.map((r) => r.headers['webhook-id']),
      [...before, ...after].map((e) => e.id),
    );
    for (const r of hook.received) new Webhook(first.secret).verify(r.body, r.headers as Record<string, string>);
    assert.deepEqual(
      reports(second.listen).map((r) => r.eventId),
      after.map((e) => e.id),
    );
  }, 120_000);
});
