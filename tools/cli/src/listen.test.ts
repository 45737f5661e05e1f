import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateToken } from '@workcell/credentials';
import type { ListItem } from '@workcell/sdk';
import { Webhook } from 'standardwebhooks';
import { type CliIo, runCli } from './cli.js';
import { deliveryOf, type ListenProfiles } from './listen.js';
import { memoryCredentialStore, memoryJsonFile } from './store.js';

/**
 * `workcell listen` against a scripted change feed and a real local receiver: what it forwards and how it is
 * signed, where it starts and resumes, what it filters, and how it fails and stops. Every wait is for an event
 * (a request received, a line printed), never for time.
 */

const serviceAccount = generateToken('service_account', 'eu1', 'c1');
const ENV = { CI: '1', WORKCELL_TOKEN: serviceAccount, WORKCELL_BASE_URL: 'https://api.test' };

type Entry = ListItem<'listChanges'>;
const entry = (sequence: number, type = 'tag.created'): Entry => ({
  id: String(sequence),
  eventId: `0190a000-0000-7000-8000-${String(sequence).padStart(12, '0')}`,
  type,
  resourceType: type.startsWith('task.') ? 'tasks' : 'tags',
  resourceId: `0190b000-0000-7000-8000-${String(sequence).padStart(12, '0')}`,
  action: type.split('.')[1] as Entry['action'],
  occurredAt: `2026-03-01T10:00:${String(sequence % 60).padStart(2, '0')}.000Z`,
  payload: { tag: { id: `t${sequence}`, name: 'ä "quoted"' }, changed: ['name'] },
});

/** Something that happens later: resolves when `count()` reaches `n` (checked on every `changed()`). */
class Counter {
  private waiting: { n: number; resolve: () => void }[] = [];
  constructor(private readonly count: () => number) {}
  changed() {
    this.waiting = this.waiting.filter((w) => (this.count() >= w.n ? (w.resolve(), false) : true));
  }
  reach(n: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push({ n, resolve });
      this.changed();
    });
  }
}

type FeedAnswer = { data: Entry[]; next: string } | { status: number; errors: { code: string; detail: string; source?: { parameter: string } }[] };

/**
 * The API: GET /v1/changes answers, per cursor sent ('' for none), the next of its scripted answers; with none left
 * it holds the request like a caught-up long poll, until the client aborts it. GET /v1/event-catalog answers `catalog`.
 */
function fakeApi(script: Record<string, FeedAnswer[]>, catalog: { name: string; resourceType: string }[] | number = []) {
  const requests: URL[] = [];
  let holding = 0;
  const held = new Counter(() => holding);
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchFn = (async (url: string, init: RequestInit) => {
    const at = new URL(url);
    requests.push(at);
    if (at.pathname === '/v1/event-catalog') {
      if (typeof catalog === 'number') return answer(catalog, { errors: [{ code: 'insufficient_scope', detail: 'needs events:read', status: String(catalog), title: 'Forbidden' }] });
      return answer(200, { data: { eventTypes: catalog.map((e) => ({ ...e, description: '', requiredScopes: [] })), channels: [] } });
    }
    assert.equal(at.pathname, '/v1/changes');
    const next = script[at.searchParams.get('cursor') ?? '']?.shift();
    if (next === undefined) {
      holding++;
      held.changed();
      return new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    if ('status' in next) return answer(next.status, { errors: next.errors.map((e) => ({ ...e, status: String(next.status), title: 'Error' })) });
    return answer(200, { data: next.data, meta: { limit: 100, nextCursor: next.next }, links: { next: null } });
  }) as unknown as typeof fetch;
  /** The feed requests, as [cursor, whether it asked for payloads]. */
  const feedReads = () => requests.filter((r) => r.pathname === '/v1/changes').map((r) => [r.searchParams.get('cursor'), r.searchParams.get('include')]);
  return { fetchFn, requests, feedReads, held };
}

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaderNames: string[];
  readonly body: string;
}

/** A local receiver: records each request and answers `status(path, n)` (n: the n-th request, from 1), or never. */
async function receiver(status: (path: string, n: number) => number | 'never' = () => 200) {
  const received: Received[] = [];
  const arrived = new Counter(() => received.length);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = status(req.url ?? '/', received.length);
      arrived.changed();
      if (answer !== 'never') res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    arrived,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function listenIo(fetchFn: typeof fetch, state = memoryJsonFile<ListenProfiles>()) {
  const out: string[] = [];
  const err: string[] = [];
  const printed = new Counter(() => out.length);
  const said = new Counter(() => err.length);
  const stop = new AbortController();
  const io: CliIo = {
    env: ENV,
    interactive: false,
    tty: false,
    promptSecret: async () => '',
    prompt: async () => '',
    out: (line) => void (out.push(line), printed.changed()),
    err: (line) => void (err.push(line), said.changed()),
    readInput: async () => '',
    save: async () => undefined,
    store: memoryCredentialStore(),
    insecureStore: memoryCredentialStore(),
    version: '9.9.9',
    fetch: fetchFn,
    sleep: async () => undefined,
    listenState: state,
    interruption: () => stop.signal,
  };
  const secret = () => err.find((l) => l.startsWith('Signing secret: '))?.slice('Signing secret: '.length);
  return { io, out, err, printed, said, state, secret, interrupt: () => stop.abort() };
}

describe('workcell listen', () => {
  const servers: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  const startReceiver = async (...args: Parameters<typeof receiver>) => {
    const r = await receiver(...args);
    servers.push(r);
    return r;
  };

  it('builds the body and headers a signed webhook subscription sends, signed with the secret', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const e = entry(42, 'tag.updated');
    const sentAt = new Date('2026-03-01T10:05:00.900Z');
    const { body, headers } = deliveryOf(e, secret, sentAt);
    // libs/domain delivery/body.ts signedBody: this key order, the sequence as a string, the payload as the feed gave it.
    assert.equal(
      body,
      `{"type":"tag.updated","timestamp":"2026-03-01T10:00:42.000Z","sequence":"42","data":{"resourceType":"tags","resourceId":"${e.resourceId}","action":"updated","payload":{"tag":{"id":"t42","name":"ä \\"quoted\\""},"changed":["name"]}}}`,
    );
    assert.deepEqual(Object.keys(headers), ['content-type', 'content-length', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'webhook-sequence']);
    assert.deepEqual(
      [headers['content-type'], headers['content-length'], headers['user-agent'], headers['webhook-id'], headers['webhook-timestamp'], headers['webhook-sequence']],
      ['application/json', String(Buffer.byteLength(body)), 'Workcell-Webhooks/1', e.eventId, String(Math.floor(sentAt.getTime() / 1000)), '42'],
    );
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
    // Verified as a receiver does (the timestamp is checked against now, so a signature of now).
    const fresh = deliveryOf(e, secret, new Date());
    assert.deepEqual(new Webhook(secret).verify(fresh.body, fresh.headers), JSON.parse(body));
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(fresh.body, fresh.headers));
  });

  it('starts from now, forwards each later event signed with the secret it prints, and Ctrl-C ends it with 0', async () => {
    const hook = await startReceiver();
    const [old, a, b] = [entry(1), entry(2), entry(3, 'task.created')];
    const api = fakeApi({
      '': [{ data: [old], next: 'c1' }],
      c1: [
        { data: [], next: 'c1' },
        { data: [a, b], next: 'c2' },
      ],
    });
    const t = listenIo(api.fetchFn);
    const run = runCli(['listen', '--forward-to', `${hook.url}/hook`], t.io);
    await hook.arrived.reach(2);
    await t.printed.reach(2);
    await api.held.reach(1);
    t.interrupt();
    assert.equal(await run, 0, t.err.join('\n'));

    const secret = t.secret();
    assert.match(secret ?? '', /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(
      hook.received.map((r) => [r.path, r.headers['webhook-id']]),
      [
        ['/hook', a.eventId],
        ['/hook', b.eventId],
      ],
      'the events after the start, in order; not the one before',
    );
    for (const [i, r] of hook.received.entries()) {
      const sent = [a, b][i]!;
      assert.deepEqual(new Webhook(secret!).verify(r.body, r.headers as Record<string, string>), JSON.parse(deliveryOf(sent, secret!, new Date()).body));
      assert.equal(r.body, deliveryOf(sent, secret!, new Date()).body);
    }
    // Caught up without payloads, then long polls for them.
    assert.deepEqual(api.feedReads(), [
      [null, null],
      ['c1', null],
      ['c1', 'payload'],
      ['c2', 'payload'],
    ]);
    const poll = api.requests.at(-1)!;
    assert.deepEqual([poll.searchParams.get('wait'), poll.searchParams.get('limit'), poll.searchParams.get('types')], ['30', '100', null]);
    // One line per forward: JSON in a pipe.
    assert.deepEqual(
      t.out.map((l) => JSON.parse(l) as Record<string, unknown>).map(({ type, eventId, sequence, status, error }) => [type, eventId, sequence, status, error]),
      [
        ['tag.created', a.eventId, '2', 200, null],
        ['task.created', b.eventId, '3', 200, null],
      ],
    );
    assert.ok(
      t.err.some((l) => l.startsWith('Ready: forwarding every event to') && l.includes('from now')),
      t.err.join('\n'),
    );
    assert.ok(t.err.at(-1)!.startsWith('Stopped'), t.err.join('\n'));
    assert.ok(!t.err.join('\n').match(/\n\s+at /), 'no stack trace');
    assert.deepEqual(t.state.value['default']?.positions, { '*': { cursor: 'c2' } });
  });

  it('a restart resumes where it stopped, with the same secret; a restart mid-page skips what it forwarded', async () => {
    const hook = await startReceiver();
    const [a, b, c] = [entry(10), entry(11), entry(12)];
    const first = fakeApi({
      '': [{ data: [], next: 'c5' }],
      c5: [
        { data: [], next: 'c5' },
        { data: [a], next: 'c6' },
      ],
    });
    const one = listenIo(first.fetchFn);
    const run = runCli(['listen', '--forward-to', hook.url], one.io);
    await first.held.reach(1);
    one.interrupt();
    assert.equal(await run, 0);
    assert.deepEqual(one.state.value['default']?.positions, { '*': { cursor: 'c6' } });

    const second = fakeApi({ c6: [{ data: [b], next: 'c7' }] });
    const two = listenIo(second.fetchFn, one.state);
    const again = runCli(['listen', '--forward-to', hook.url], two.io);
    await second.held.reach(1);
    two.interrupt();
    assert.equal(await again, 0);
    assert.equal(two.secret(), one.secret(), 'the same secret across restarts');
    assert.deepEqual(
      second.feedReads(),
      [
        ['c6', 'payload'],
        ['c7', 'payload'],
      ],
      'resumed from the saved cursor, no catching up',
    );
    assert.ok(two.err.some((l) => l.includes('from where it stopped')));

    // Stopped after forwarding b of the page [b, c] at cursor c6: only c follows.
    const state = memoryJsonFile<ListenProfiles>({ default: { secret: one.secret()!, positions: { '*': { cursor: 'c6', forwarded: '11' } } } });
    const third = fakeApi({ c6: [{ data: [b, c], next: 'c8' }] });
    const three = listenIo(third.fetchFn, state);
    const resumed = runCli(['listen', '--forward-to', hook.url], three.io);
    await third.held.reach(1);
    three.interrupt();
    assert.equal(await resumed, 0);
    assert.deepEqual(
      hook.received.map((r) => r.headers['webhook-id']),
      [a.eventId, b.eventId, c.eventId],
      'each event once',
    );
    assert.deepEqual(state.value['default']?.positions, { '*': { cursor: 'c8' } });
  });

  it('--from-cursor starts there instead of the saved position; one the API refuses is an error (exit 1)', async () => {
    const hook = await startReceiver();
    const state = memoryJsonFile<ListenProfiles>({ default: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, positions: { '*': { cursor: 'saved' } } } });
    const api = fakeApi({ mine: [{ data: [entry(5)], next: 'c9' }] });
    const t = listenIo(api.fetchFn, state);
    const run = runCli(['listen', '--forward-to', hook.url, '--from-cursor', 'mine'], t.io);
    await api.held.reach(1);
    t.interrupt();
    assert.equal(await run, 0);
    assert.deepEqual(api.feedReads(), [
      ['mine', 'payload'],
      ['c9', 'payload'],
    ]);
    assert.equal(hook.received.length, 1);

    const refused = fakeApi({ bad: [{ status: 400, errors: [{ code: 'validation_failed', detail: 'the cursor is not valid for this list', source: { parameter: 'cursor' } }] }] });
    const u = listenIo(refused.fetchFn, state);
    assert.equal(await runCli(['listen', '--forward-to', hook.url, '--from-cursor', 'bad'], u.io), 1);
    assert.match(u.err.join('\n'), /cursor: the cursor is not valid/);
    assert.deepEqual(state.value['default']?.positions, { '*': { cursor: 'c9' } }, 'a refused --from-cursor is not kept');
  });

  it('a saved position the API refuses (a login to another workspace) is replaced by now', async () => {
    const hook = await startReceiver();
    const state = memoryJsonFile<ListenProfiles>({ default: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, positions: { '*': { cursor: 'elsewhere' } } } });
    const refusal = { status: 400, errors: [{ code: 'validation_failed', detail: 'the cursor is not valid for this list', source: { parameter: 'cursor' } }] };
    const api = fakeApi({ elsewhere: [refusal], '': [{ data: [entry(1)], next: 'h' }], h: [{ data: [], next: 'h' }] });
    const t = listenIo(api.fetchFn, state);
    const run = runCli(['listen', '--forward-to', hook.url], t.io);
    await api.held.reach(1);
    t.interrupt();
    assert.equal(await run, 0);
    assert.ok(
      t.err.some((l) => l.includes('the saved position is not valid')),
      t.err.join('\n'),
    );
    assert.deepEqual(api.feedReads(), [
      ['elsewhere', 'payload'],
      [null, null],
      ['h', null],
      ['h', 'payload'],
    ]);
    assert.equal(hook.received.length, 0);
    assert.deepEqual(state.value['default']?.positions, { '*': { cursor: 'h' } });
  });

  it('--events forwards only those event types and reads only their resource types (types=)', async () => {
    const hook = await startReceiver();
    const catalog = [
      { name: 'tag.created', resourceType: 'tags' },
      { name: 'tag.updated', resourceType: 'tags' },
      { name: 'task.created', resourceType: 'tasks' },
    ];
    const [a, b, c] = [entry(1, 'tag.created'), entry(2, 'tag.updated'), entry(3, 'tag.created')];
    const api = fakeApi(
      {
        '': [{ data: [], next: 't0' }],
        t0: [
          { data: [], next: 't0' },
          { data: [a, b, c], next: 't1' },
        ],
      },
      catalog,
    );
    const t = listenIo(api.fetchFn);
    const run = runCli(['listen', '--forward-to', hook.url, '--events', 'tag.created'], t.io);
    await api.held.reach(1);
    t.interrupt();
    assert.equal(await run, 0);
    assert.deepEqual(
      hook.received.map((r) => r.headers['webhook-id']),
      [a.eventId, c.eventId],
    );
    const feed = api.requests.filter((r) => r.pathname === '/v1/changes');
    assert.ok(
      feed.every((r) => r.searchParams.get('types') === 'tags'),
      feed.join('\n'),
    );
    // The position is kept per filter: a cursor is bound to its `types`.
    assert.deepEqual(t.state.value['default']?.positions, { tags: { cursor: 't1' } });

    const unknown = fakeApi({}, catalog);
    const u = listenIo(unknown.fetchFn);
    assert.equal(await runCli(['listen', '--forward-to', hook.url, '--events', 'tag.created,tag.exploded'], u.io), 2);
    assert.match(u.err.join('\n'), /tag\.exploded is not an event type this credential may receive/);
    assert.deepEqual(unknown.feedReads(), []);

    // Without events:read the types cannot be looked up: every resource type is read, and only --events forwarded.
    const blind = fakeApi(
      {
        '': [{ data: [], next: 'b0' }],
        b0: [
          { data: [], next: 'b0' },
          { data: [entry(4, 'task.created'), entry(5, 'tag.created')], next: 'b1' },
        ],
      },
      403,
    );
    const v = listenIo(blind.fetchFn);
    const blindRun = runCli(['listen', '--forward-to', hook.url, '--events', 'tag.created'], v.io);
    await blind.held.reach(1);
    v.interrupt();
    assert.equal(await blindRun, 0);
    assert.ok(blind.requests.filter((r) => r.pathname === '/v1/changes').every((r) => r.searchParams.get('types') === null));
    assert.deepEqual(
      hook.received.slice(2).map((r) => r.headers['webhook-id']),
      [entry(5).eventId],
    );
  });

  it('a failed forward (receiver down, non-2xx) is printed and listen goes on; so does an API error it may retry', async () => {
    const hook = await startReceiver((_path, n) => (n === 1 ? 500 : 200));
    const [a, b, c] = [entry(1), entry(2), entry(3)];
    const serverError = { status: 500, errors: [{ code: 'internal_error', detail: 'try again' }] };
    const api = fakeApi({ '': [{ data: [], next: 'f0' }], f0: [{ data: [], next: 'f0' }, serverError, { data: [a, b], next: 'f1' }], f1: [{ data: [c], next: 'f2' }] });
    const t = listenIo(api.fetchFn);
    const run = runCli(['listen', '--forward-to', hook.url], t.io);
    await api.held.reach(1);
    t.interrupt();
    assert.equal(await run, 0, t.err.join('\n'));
    const lines = t.out.map((l) => JSON.parse(l) as { eventId: string; status: number | null; error: string | null });
    assert.deepEqual(
      lines.map((l) => [l.eventId, l.status]),
      [
        [a.eventId, 500],
        [b.eventId, 200],
        [c.eventId, 200],
      ],
    );
    assert.equal(lines[0]!.error, 'the receiver answered 500');
    assert.ok(
      t.err.some((l) => l.includes('the change feed did not answer')),
      t.err.join('\n'),
    );

    // The receiver is down: each forward fails, is printed, and the next is tried.
    await hook.close();
    const down = fakeApi({ d0: [{ data: [entry(7), entry(8)], next: 'd1' }] });
    const u = listenIo(down.fetchFn, memoryJsonFile<ListenProfiles>({ default: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, positions: { '*': { cursor: 'd0' } } } }));
    const downRun = runCli(['listen', '--forward-to', hook.url], u.io);
    await down.held.reach(1);
    u.interrupt();
    assert.equal(await downRun, 0);
    const failed = u.out.map((l) => JSON.parse(l) as { status: number | null; error: string });
    assert.equal(failed.length, 2);
    assert.ok(
      failed.every((l) => l.status === null && /ECONNREFUSED/.test(l.error)),
      u.out.join('\n'),
    );
  });

  it('Ctrl-C during a forward the receiver never answers stops at once; that event is forwarded again next time', async () => {
    const hook = await startReceiver((_path, n) => (n === 1 ? 'never' : 200));
    const a = entry(1);
    const state = memoryJsonFile<ListenProfiles>({ default: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, positions: { '*': { cursor: 'p0' } } } });
    const api = fakeApi({ p0: [{ data: [a], next: 'p1' }] });
    const t = listenIo(api.fetchFn, state);
    const run = runCli(['listen', '--forward-to', hook.url], t.io);
    await hook.arrived.reach(1);
    t.interrupt();
    assert.equal(await run, 0);
    assert.deepEqual(t.out, []);
    assert.deepEqual(state.value['default']?.positions, { '*': { cursor: 'p0' } }, 'not recorded as forwarded');
  });

  it('at a terminal, one readable line per forward: time, event type, event id, status or failure, milliseconds', async () => {
    const hook = await startReceiver((_path, n) => (n === 1 ? 200 : 503));
    const state = memoryJsonFile<ListenProfiles>({ default: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, positions: { '*': { cursor: 'h0' } } } });
    const [a, b] = [entry(1), entry(2, 'task.created')];
    const api = fakeApi({ h0: [{ data: [a, b], next: 'h1' }] });
    const t = listenIo(api.fetchFn, state);
    const run = runCli(['listen', '--forward-to', hook.url], { ...t.io, tty: true });
    await api.held.reach(1);
    t.interrupt();
    assert.equal(await run, 0);
    assert.equal(t.out.length, 2, t.out.join('\n'));
    assert.match(t.out[0]!, new RegExp(`^\\d\\d:\\d\\d:\\d\\d  tag\\.created \\[${a.eventId}\\] → 200 \\(\\d+ ms\\)$`));
    assert.match(t.out[1]!, new RegExp(`^\\d\\d:\\d\\d:\\d\\d  task\\.created \\[${b.eventId}\\] → 503 \\(failed\\) \\(\\d+ ms\\)$`));
    const help = listenIo(fakeApi({}).fetchFn);
    assert.equal(await runCli(['help', 'listen'], help.io), 0);
    assert.match(help.out.join('\n'), /^usage: workcell listen --forward-to URL/);
  });

  it('refuses a missing or non-http --forward-to and an empty --events name with 2, before any request', async () => {
    for (const args of [[], ['--forward-to', 'ftp://example.test/'], ['--forward-to', 'not a url'], ['--forward-to', 'http://localhost:1/', '--events', 'tag.created,']]) {
      const api = fakeApi({});
      const t = listenIo(api.fetchFn);
      assert.equal(await runCli(['listen', ...args], t.io), 2, args.join(' '));
      assert.deepEqual(api.requests, []);
    }
  });

  it('keeps the secret before showing it', async () => {
    const api = fakeApi({ '': [{ status: 401, errors: [{ code: 'credential_revoked', detail: 'revoked' }] }] });
    const t = listenIo(api.fetchFn);
    assert.equal(await runCli(['listen', '--forward-to', 'http://127.0.0.1:1/'], t.io), 1);
    assert.equal(t.state.value['default']?.secret, t.secret());
  });
});
