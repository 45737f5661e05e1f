import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ChangeWaits, createApiV1App } from '@workcell/api-v1';
import type { AppConfig } from '@workcell/config';
import { V1_SCOPES } from '@workcell/credentials';
import { appendOutboxEvent, type OutboxWaiters, inTransaction } from '@workcell/db';
import { encodeCursor, signedBody } from '@workcell/domain';
import { createApiV0App } from '@workcell/api-v0';
import { type RunningApp, startApp, TcpProxy, useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { callV0 } from './support/v0.js';
import { assertProblem, assertShape, errorOf, type ListBody, type Reply, type Schema } from './support/v1.js';

/**
 * The durable change feed (`GET /v1/changes`) and the event catalog (`GET /v1/event-catalog`), contract 6, end to
 * end: commit order and actions, resuming from a persisted cursor with events written in between (no gap, no
 * duplicate), scope, finance-overlay and resource-grant filtering, the `types` filter, tamper-evident cursors,
 * tenancy, bounded reads of a deep feed whose events are mostly filtered out, the long poll (`wait`) and the
 * authorization-filtered catalog. The API instances LISTEN through a TcpProxy (DATABASE_LISTEN_URL), so a test can
 * take their outbox listener down and nothing else.
 */

const env = useTestEnvironment();

type Change = Schema<'Change'>;
type Catalog = { eventTypes: { name: string; description: string; resourceType: string; requiredScopes: string[] }[]; channels: { name: string; transport: string; description: string }[] };

describe('v1 change feed and event catalog', () => {
  /** The cell's LISTEN connection goes through this proxy, so a test can cut it. */
  let listenProxy: TcpProxy;
  beforeAll(async () => {
    listenProxy = await TcpProxy.start(env.databaseUrl);
  });
  const cell = useV1Cell(env, () => ({ settings: { DATABASE_LISTEN_URL: listenProxy.rewrite(env.databaseUrl) } }));
  afterAll(() => listenProxy?.close());
  const { call } = cell;
  const other = { workspaceId: '', tagId: '' };
  let seq = 0;

  const feedPage = (token: string, query: Record<string, string> = {}, app: RunningApp = cell.v1): Promise<Reply<ListBody<Change>>> =>
    call<ListBody<Change>>('GET', `/v1/changes?${new URLSearchParams(query).toString()}`, token, undefined, {}, app);

  /** Reads from `cursor` (or the start) until caught up: every entry and the resumable cursor at the end. */
  const readFeed = async (token: string, cursor: string | undefined, query: Record<string, string> = {}, app: RunningApp = cell.v1) => {
    const items: Change[] = [];
    let position = cursor;
    let pages = 0;
    for (;;) {
      const reply = await feedPage(token, { limit: '200', ...query, ...(position === undefined ? {} : { cursor: position }) }, app);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      pages++;
      items.push(...reply.body.data);
      assert.ok(reply.body.meta.nextCursor, 'the feed always answers a resumable cursor');
      position = reply.body.meta.nextCursor;
      if (reply.body.links.next === null) return { items, cursor: position, pages };
      assert.ok(pages < 100, 'the feed ends');
    }
  };
  /** The current end of the feed for this filter. */
  const head = async (query: Record<string, string> = {}) => (await readFeed(cell.admin, undefined, query)).cursor;

  const createTag = async (token = cell.admin) => {
    const reply = await call<{ data: { id: string } }>('POST', '/v1/tags', token, { name: `Tag ${++seq}` });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const updateTag = async (id: string) => assert.equal((await call('PATCH', `/v1/tags/${id}`, cell.admin, { name: `Renamed ${++seq}` })).status, 200);
  const createTask = async () => {
    const reply = await call<{ data: { id: string } }>('POST', '/v1/tasks', cell.admin, { title: `Task ${++seq}` });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const of = (items: readonly Change[], id: string) => items.filter((c) => c.resourceId === id).map((c) => c.action);

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: other.workspaceId, name: 'Foreign tag' } })).id;
    // Another workspace's events, with sequences that overlap this workspace's.
    await inTransaction(cell.database, async (tx) => {
      for (const eventType of ['tag.created', 'tag.updated', 'tag.archived']) {
        await appendOutboxEvent(tx, { actor: null, cause: null, workspaceId: other.workspaceId, aggregateType: 'tag', aggregateId: other.tagId, eventType, payload: {} });
      }
    });
  });

  describe('scopes', () => {
    it('listChanges needs changes:read and getEventCatalog events:read: 403 insufficient_scope naming it', async () => {
      const noChanges = await cell.mint(V1_SCOPES.filter((s) => s !== 'changes:read'));
      const reply = await feedPage(noChanges);
      assertProblem(reply, 403, 'insufficient_scope');
      assert.match(errorOf(reply).detail, /changes:read/);
      const noEvents = await cell.mint(V1_SCOPES.filter((s) => s !== 'events:read'));
      const catalog = await call('GET', '/v1/event-catalog', noEvents);
      assertProblem(catalog, 403, 'insufficient_scope');
      assert.match(errorOf(catalog).detail, /events:read/);
    });
  });

  describe('entries', () => {
    it('reports created, updated, archived and restored in commit order, with the outbox sequence as id', async () => {
      const start = await head();
      const tag = await createTag();
      await updateTag(tag);
      assert.equal((await call('DELETE', `/v1/tags/${tag}`, cell.admin)).status, 204);
      assert.equal((await call('POST', `/v1/tags/${tag}/restore`, cell.admin)).status, 200);
      // With include=payload an entry has every field of the registry's Change (without it, all but `payload`).
      const { items } = await readFeed(cell.admin, start, { include: 'payload' });
      const entries = items.filter((c) => c.resourceId === tag);
      assert.deepEqual(
        entries.map((c) => c.action),
        ['created', 'updated', 'archived', 'restored'],
      );
      for (const entry of entries) {
        assertShape('listChanges', entry);
        assert.equal(entry.resourceType, 'tags');
        assert.ok(!Number.isNaN(Date.parse(entry.occurredAt)));
      }
      const sequences = (await cell.outbox(tag)).map((e) => e.sequence.toString());
      assert.deepEqual(
        entries.map((c) => c.id),
        sequences,
        'ids are the outbox sequences',
      );
      const ids = items.map((c) => BigInt(c.id));
      assert.ok(
        ids.every((id, i) => i === 0 || id > ids[i - 1]!),
        'strictly increasing',
      );
    });

    it('each entry names its event (type, eventId); include=payload adds exactly what a signed webhook delivery of it carries', async () => {
      const start = await head();
      const tag = await createTag();
      await updateTag(tag);
      const events = await cell.outbox(tag);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['tag.created', 'tag.updated'],
      );
      // The stored payload holds the internal request id, which deliveries (and so the feed) leave out.
      assert.ok(
        events.every((e) => typeof (e.payload as { requestId?: unknown }).requestId === 'string'),
        'stored with a request id',
      );

      const plain = (await readFeed(cell.admin, start)).items.filter((c) => c.resourceId === tag);
      assert.deepEqual(
        plain.map((c) => [c.id, c.eventId, c.type]),
        events.map((e) => [e.sequence.toString(), e.id, e.eventType]),
      );
      for (const entry of plain) assert.deepEqual(Object.keys(entry), ['id', 'eventId', 'type', 'resourceType', 'resourceId', 'action', 'occurredAt'], 'no payload unless asked for');

      const withPayload = await readFeed(cell.admin, start, { include: 'payload' });
      const entries = withPayload.items.filter((c) => c.resourceId === tag);
      assert.equal(entries.length, 2);
      for (const [i, entry] of entries.entries()) {
        const { payload, ...rest } = entry;
        assert.deepEqual(rest, plain[i], 'the same entry, with its payload');
        assert.equal((payload as { tag: { id: string } }).tag.id, tag);
        assert.ok(!('requestId' in payload!), 'no internal request id');
        // The delivery body rebuilt from the entry is the body a subscription is sent, byte for byte.
        const rebuilt = JSON.stringify({
          type: entry.type,
          timestamp: entry.occurredAt,
          sequence: entry.id,
          data: { resourceType: entry.resourceType, resourceId: entry.resourceId, action: entry.action, payload },
        });
        assert.equal(rebuilt, signedBody(events[i]!));
      }
      // include changes no entry and no cursor: a cursor read with it resumes without it, and the other way round.
      assert.equal(withPayload.cursor, (await readFeed(cell.admin, start)).cursor);
      const next = await createTag();
      assert.deepEqual(
        (await readFeed(cell.admin, withPayload.cursor)).items.map((c) => c.resourceId),
        [next],
      );
    });

    it('include takes only payload: anything else is 400 naming the parameter', async () => {
      for (const include of ['payloads', 'Payload', 'payload,payload', '']) {
        const reply = await feedPage(cell.admin, { include });
        assertProblem(reply, 400, 'validation_failed');
        assert.equal(errorOf(reply).source?.parameter, 'include', `${JSON.stringify(include)}: ${JSON.stringify(reply.body)}`);
      }
    });

    it('task timers are time entries: v1 timer/start|stop and v0 startTracking|stopTracking report the time entry created and updated', async () => {
      // Issue 10: the timer paths wrote time entries without time_entry events, so the feed and webhooks never saw them.
      const v0 = await startApp((c) => createApiV0App(c), cell.config);
      try {
        const start = await head({ types: 'time-entries' });
        const task = await createTask();
        const started = await call<{ data: { id: string } }>('POST', `/v1/tasks/${task}/timer/start`, cell.admin, {});
        assert.equal(started.status, 201, JSON.stringify(started.body));
        assert.equal((await call('POST', `/v1/tasks/${task}/timer/stop`, cell.admin, {})).status, 200);
        const v1Entry = started.body.data.id;
        const team = cell.demo.v0TeamToken;
        const v0Task = await createTask();
        assert.equal((await callV0(v0, 'POST', `/tasks/${v0Task}/startTracking`, team, {})).status, 200);
        assert.equal((await callV0(v0, 'POST', `/tasks/${v0Task}/stopTracking`, team, {})).status, 200);
        const v0Entry = (await cell.database.prisma.timeEntry.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, taskId: v0Task } })).id;
        const { items } = await readFeed(cell.admin, start, { types: 'time-entries' });
        assert.deepEqual(of(items, v1Entry), ['created', 'updated'], 'v1 timer');
        assert.deepEqual(of(items, v0Entry), ['created', 'updated'], 'v0 tracking');
        for (const id of [v1Entry, v0Entry]) {
          const events = await cell.outbox(id);
          assert.deepEqual(
            events.map((e) => e.eventType),
            ['time_entry.created', 'time_entry.updated'],
          );
          // Each in the same transaction as its task.timer_* event: consecutive sequences.
          const timer = await cell.database.prisma.outboxEvent.findMany({
            where: { workspaceId: cell.workspaceId, eventType: { in: ['task.timer_started', 'task.timer_stopped'] }, payload: { path: ['timeEntryId'], equals: id } },
            orderBy: { sequence: 'asc' },
          });
          assert.deepEqual(
            timer.map((e) => e.sequence + 1n),
            events.map((e) => e.sequence),
          );
        }
      } finally {
        await v0.close();
      }
    });

    it('never shows another workspace’s events', async () => {
      const { items } = await readFeed(cell.admin, undefined);
      assert.ok(items.length > 0);
      assert.ok(!items.some((c) => c.resourceId === other.tagId));
    });
  });

  describe('durable cursor', () => {
    it('resumes from a persisted cursor with exactly the later events, also on another instance', async () => {
      const start = await head();
      const a = await createTag();
      const b = await createTag();
      const first = await feedPage(cell.admin, { cursor: start, limit: '1' });
      assert.equal(first.status, 200);
      assert.deepEqual(
        first.body.data.map((c) => [c.resourceId, c.action]),
        [[a, 'created']],
      );
      assert.ok(first.body.links.next, 'more entries exist');
      const persisted = first.body.meta.nextCursor!;
      // Written after the cursor was handed out.
      const c = await createTag();
      await updateTag(a);
      const resumed = await readFeed(cell.admin, persisted, {}, cell.v1b);
      assert.deepEqual(
        resumed.items.map((e) => [e.resourceId, e.action]),
        [
          [b, 'created'],
          [c, 'created'],
          [a, 'updated'],
        ],
      );

      // Caught up: links.next is null, meta.nextCursor still resumable; nothing new is an empty page at the same place.
      const idle = await feedPage(cell.admin, { cursor: resumed.cursor });
      assert.deepEqual([idle.body.data, idle.body.links.next, idle.body.meta.nextCursor], [[], null, resumed.cursor]);
      const d = await createTag();
      const later = await readFeed(cell.admin, resumed.cursor);
      assert.deepEqual(
        later.items.map((e) => [e.resourceId, e.action]),
        [[d, 'created']],
      );
    });

    it('no gap and no duplicate while writes race the reader', async () => {
      const start = await head();
      const written: string[] = [];
      let position = start;
      const seen: Change[] = [];
      for (let round = 0; round < 5; round++) {
        const writes = Array.from({ length: 4 }, () => createTag().then((id) => written.push(id)));
        const page = await feedPage(cell.admin, { cursor: position, limit: '3' });
        assert.equal(page.status, 200);
        seen.push(...page.body.data);
        position = page.body.meta.nextCursor!;
        await Promise.all(writes);
      }
      seen.push(...(await readFeed(cell.admin, position)).items);
      const created = seen.filter((c) => c.action === 'created').map((c) => c.resourceId);
      assert.equal(new Set(seen.map((c) => c.id)).size, seen.length, 'no duplicate');
      assert.deepEqual([...created].sort(), [...written].sort(), 'every write exactly once');
    });

    it('refuses tampered, foreign and differently-filtered cursors with 400 naming the cursor', async () => {
      const cursor = await head();
      const [payload, signature] = cursor.split('.') as [string, string];
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: '0' })).toString('base64url');
      const tagsPage = await call<ListBody<unknown>>('GET', '/v1/tags?limit=1', cell.admin);
      const bad = [
        `${forged}.${signature}`,
        `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
        'not-a-cursor',
        encodeCursor(cell.config, { workspaceId: other.workspaceId, list: 'listChanges', filter: { types: [] } }, '0'),
        encodeCursor(cell.config, { workspaceId: cell.workspaceId, list: 'listChanges', filter: { types: [] } }, 'abc'),
        tagsPage.body.meta.nextCursor ?? encodeCursor(cell.config, { workspaceId: cell.workspaceId, list: 'listTags', filter: {} }, randomUUID()),
      ];
      for (const c of bad) {
        const reply = await feedPage(cell.admin, { cursor: c });
        assertProblem(reply, 400, 'validation_failed');
        assert.equal(errorOf(reply).source?.parameter, 'cursor', c);
      }
      // A cursor is bound to its `types` filter.
      const tasksCursor = await head({ types: 'tasks' });
      assertProblem(await feedPage(cell.admin, { cursor: tasksCursor, types: 'tags' }), 400, 'validation_failed');
      assertProblem(await feedPage(cell.admin, { cursor: tasksCursor }), 400, 'validation_failed');
      assert.equal((await feedPage(cell.admin, { cursor: tasksCursor, types: 'tasks' })).status, 200);
    });
  });

  describe('types filter', () => {
    it('limits entries to the named resource types', async () => {
      const start = await head();
      const tag = await createTag();
      const task = await createTask();
      const startTasks = await head({ types: 'tasks' });
      const tasksOnly = await readFeed(cell.admin, undefined, { types: 'tasks' });
      assert.ok(tasksOnly.items.length > 0 && tasksOnly.items.every((c) => c.resourceType === 'tasks'));
      assert.deepEqual(of(tasksOnly.items, task), ['created']);
      assert.equal(tasksOnly.cursor, startTasks);
      const both = await readFeed(cell.admin, start);
      assert.deepEqual([of(both.items, tag), of(both.items, task)], [['created'], ['created']]);
      const listed = await readFeed(cell.admin, undefined, { types: 'tasks,tags' });
      assert.ok(listed.items.some((c) => c.resourceId === tag) && listed.items.some((c) => c.resourceId === task));
      assert.ok(listed.items.every((c) => ['tags', 'tasks'].includes(c.resourceType)));
    });

    it('an unknown or malformed type is 400 naming the parameter', async () => {
      for (const types of ['nope', 'tags,nope', 'Tags', 'tags,,tasks', '']) {
        const reply = await feedPage(cell.admin, { types });
        assert.equal(reply.status, 400, `${types}: ${JSON.stringify(reply.body)}`);
        const error = errorOf(reply);
        assert.ok(error.source?.parameter === 'types' || error.source?.pointer?.includes('types'), JSON.stringify(reply.body));
      }
    });
  });

  describe('authorization filtering', () => {
    it('a credential without tasks:read never sees task changes', async () => {
      const start = await head();
      const token = await cell.mint(['changes:read', 'tags:read']);
      const task = await createTask();
      const tag = await createTag();
      const { items } = await readFeed(token, start);
      assert.deepEqual(of(items, tag), ['created']);
      assert.deepEqual(of(items, task), []);
      assert.ok(items.every((c) => c.resourceType === 'tags'));
      const all = await readFeed(token, undefined);
      assert.ok(
        all.items.every((c) => c.resourceType === 'tags'),
        'from the start, too',
      );
    });

    it('a budget statement’s changes only with project-statements:finance:read', async () => {
      const project = await call<{ data: { id: string } }>('POST', '/v1/projects', cell.admin, { name: `Project ${++seq}` });
      assert.equal(project.status, 201);
      const start = await head();
      const statement = async (kind: string) => {
        const reply = await call<{ data: { id: string } }>('POST', '/v1/project-statements', cell.admin, {
          projectId: project.body.data.id,
          kind,
          occurredOn: '2026-03-01',
          description: `Statement ${++seq}`,
          quantity: '1',
          unitPrice: { amount: '10', currency: 'EUR' },
        });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        return reply.body.data.id;
      };
      const expense = await statement('expense');
      const budget = await statement('budget');
      assert.equal((await call('DELETE', `/v1/project-statements/${budget}`, cell.admin)).status, 204);
      const plain = await cell.mint(['changes:read', 'project-statements:read', 'projects:read']);
      const finance = await cell.mint(['changes:read', 'project-statements:read', 'project-statements:finance:read', 'projects:read']);
      const plainItems = (await readFeed(plain, start)).items;
      assert.deepEqual([of(plainItems, expense), of(plainItems, budget)], [['created'], []]);
      const withPayload = (await readFeed(plain, start, { include: 'payload' })).items;
      assert.deepEqual(
        withPayload.map((c) => c.id),
        plainItems.map((c) => c.id),
        'include=payload shows no other events',
      );
      const financeItems = (await readFeed(finance, start)).items;
      assert.deepEqual([of(financeItems, expense), of(financeItems, budget)], [['created'], ['created', 'archived']]);
    });

    it('a service account sees only resources its grants let it read', async () => {
      const start = await head();
      const granted = await createTag();
      const notGranted = await createTag();
      const task = await createTask();
      await updateTag(granted);
      await updateTag(notGranted);
      const one = await cell.serviceAccount(['changes:read', 'tags:read', 'tasks:read'], [{ resourceType: 'tag', resourceId: granted, access: 'read' }]);
      const items = (await readFeed(one.token, start)).items;
      assert.deepEqual(of(items, granted), ['created', 'updated']);
      assert.deepEqual([of(items, notGranted), of(items, task)], [[], []], 'ungranted tag and task (no task grant) are left out');
      const every = await cell.serviceAccount(['changes:read', 'tags:read'], [{ resourceType: 'tag', resourceId: null, access: 'read' }]);
      const all = (await readFeed(every.token, start)).items;
      assert.deepEqual([of(all, granted), of(all, notGranted), of(all, task)], [['created', 'updated'], ['created', 'updated'], []]);
    });
  });

  describe('event catalog', () => {
    it('lists everything reachable with every scope, in the registry’s shape', async () => {
      const reply = await call<{ data: Catalog }>('GET', '/v1/event-catalog', cell.admin);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('getEventCatalog', reply.body.data);
      const names = reply.body.data.eventTypes.map((e) => e.name);
      for (const name of ['tag.created', 'task.moved', 'project_statement.archived', 'workspace.settings_updated']) assert.ok(names.includes(name), name);
      assert.ok(!names.some((n) => n.startsWith('legacy_webhook.')), 'v0-only events are not v1 events');
      assert.deepEqual(reply.body.data.channels.map((c) => [c.name, c.transport]).sort(), [
        ['changes', 'change-feed'],
        ['webhooks', 'webhook'],
      ]);
    });

    it('is filtered by the credential’s scopes and grants', async () => {
      const token = await cell.mint(['events:read', 'tags:read']);
      const reply = await call<{ data: Catalog }>('GET', '/v1/event-catalog', token);
      assert.equal(reply.status, 200);
      const { eventTypes, channels } = reply.body.data;
      assert.ok(eventTypes.length > 0 && eventTypes.every((e) => e.resourceType === 'tags' && e.requiredScopes.every((s) => s === 'tags:read')), JSON.stringify(eventTypes));
      assert.deepEqual(channels, [], 'no channel scope held');
      const withFeed = await call<{ data: Catalog }>('GET', '/v1/event-catalog', await cell.mint(['events:read', 'changes:read', 'tasks:read']));
      assert.deepEqual(
        withFeed.body.data.channels.map((c) => c.name),
        ['changes'],
      );
      assert.ok(withFeed.body.data.eventTypes.every((e) => e.resourceType === 'tasks'));
      assert.ok(!withFeed.body.data.eventTypes.some((e) => e.name === 'task.timer_started'), 'needs time-entries:read too');
      const sa = await cell.serviceAccount(['events:read', 'tags:read', 'tasks:read'], [{ resourceType: 'tag', resourceId: null, access: 'read' }]);
      const saCatalog = await call<{ data: Catalog }>('GET', '/v1/event-catalog', sa.token);
      assert.ok(saCatalog.body.data.eventTypes.length > 0 && saCatalog.body.data.eventTypes.every((e) => e.resourceType === 'tags'), 'no task grant, no task events');
    });
  });

  describe('long poll (wait)', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const waitersOf = (app: RunningApp): OutboxWaiters => (app.app as NestFastifyApplication).get(ChangeWaits).waiters;
    /** Until `count` requests on `app` have read, found nothing and wait (bounded, so a bug fails instead of hanging). */
    const held = async (count: number, app: RunningApp = cell.v1) => {
      for (let i = 0; waitersOf(app).waiting < count; i++) {
        assert.ok(i < 2_000, `${count} held requests (${waitersOf(app).waiting} waiting, ${waitersOf(app).size} taken)`);
        await sleep(5);
      }
    };
    const released = async (app: RunningApp = cell.v1) => {
      for (let i = 0; waitersOf(app).size > 0; i++) {
        assert.ok(i < 2_000, `every waiter released (${waitersOf(app).size} left)`);
        await sleep(5);
      }
    };
    /** An outbox event of another workspace, committed as a domain write would (it notifies that workspace). */
    const commitElsewhere = () =>
      inTransaction(cell.database, (tx) =>
        appendOutboxEvent(tx, { actor: null, cause: null, workspaceId: other.workspaceId, aggregateType: 'tag', aggregateId: other.tagId, eventType: 'tag.updated', payload: {} }),
      );
    /** The read answered 200 with exactly one change: the creation of `tag`. */
    const assertAnsweredCreation = (reply: Reply<ListBody<Change>>, tag: string) => {
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(
        reply.body.data.map((c) => [c.resourceId, c.action]),
        [[tag, 'created']],
      );
    };

    it('a held follower gets the event committed after its request started (woken by the commit, not by the deadline)', async () => {
      const start = await head();
      const waiting = feedPage(cell.admin, { cursor: start, wait: '10' });
      // It read, found nothing, and waits; without the wake it would answer its empty page at the deadline.
      await held(1);
      const tag = await createTag();
      const reply = await waiting;
      assertAnsweredCreation(reply, tag);
      assert.equal(reply.body.links.next, null);
      const rest = await readFeed(cell.admin, reply.body.meta.nextCursor!);
      assert.deepEqual(rest.items, [], 'the cursor resumes right after what it answered');
      await released();
    });

    it('a commit in another workspace does not answer it with that workspace’s events', async () => {
      const start = await head();
      const waiting = feedPage(cell.admin, { cursor: start, wait: '1' });
      for (let i = 0; i < 200 && waitersOf(cell.v1).waiting < 1; i++) await sleep(5);
      await commitElsewhere();
      const reply = await waiting;
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual([reply.body.data, reply.body.links.next, reply.body.meta.nextCursor], [[], null, start]);
      await released();
    });

    it('an event the credential may not read wakes it but is not answered; the next readable one is', async () => {
      const token = await cell.mint(['changes:read', 'tags:read']);
      const start = await head();
      const waiting = feedPage(token, { cursor: start, wait: '10' });
      await held(1);
      const task = await createTask();
      await commitElsewhere();
      const tag = await createTag();
      const reply = await waiting;
      assertAnsweredCreation(reply, tag);
      assert.ok(!reply.body.data.some((c) => c.resourceId === task || c.resourceType !== 'tags'));
      await released();
    });

    it('holding does not take a database connection: more held requests than the pool has connections all get the event', async () => {
      const start = await head();
      const followers = Array.from({ length: 12 }, () => feedPage(cell.admin, { cursor: start, wait: '10' }));
      await held(12);
      // The pool (10 connections) still serves other requests.
      assert.equal((await call('GET', '/v1/tags?limit=1', cell.admin)).status, 200);
      const tag = await createTag();
      for (const reply of await Promise.all(followers)) {
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.deepEqual(
          reply.body.data.map((c) => c.resourceId),
          [tag],
        );
      }
      await released();
    });

    it('a commit while the listener is down is answered when it reconnects (every reconnection wakes every waiter)', async () => {
      const start = await head();
      // The listener is up (the earlier tests were woken through it).
      const waiting = feedPage(cell.admin, { cursor: start, wait: '20' });
      await held(1);
      await listenProxy.cut();
      const tag = await createTag();
      await listenProxy.restore();
      assertAnsweredCreation(await waiting, tag);
      await released();
    });

    it('a credential revoked while its request waits gets 401 on the read after the wait, not the events', async () => {
      const token = await cell.mint(['changes:read', 'tags:read', 'tags:write']);
      const { credentialId } = (await cell.call<{ data: { credentialId: string } }>('GET', '/v1/auth/context', token)).body.data;
      const start = await head();
      const waiting = feedPage(token, { cursor: start, wait: '10' });
      await held(1);
      assert.equal((await cell.call('DELETE', `/v1/credentials/${credentialId}`, cell.admin)).status, 204);
      const tag = await createTag();
      assertProblem(await waiting, 401, 'credential_revoked');
      await released();
      // The same read with a credential left alone answers the event the revoked one was refused.
      assertAnsweredCreation(await feedPage(cell.admin, { cursor: start, wait: '10' }), tag);
    });

    it('answers a backlog at once, like without wait, links.next and all', async () => {
      const start = await head();
      const [a, b] = [await createTag(), await createTag()];
      const first = await feedPage(cell.admin, { cursor: start, limit: '1', wait: '10' });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(
        first.body.data.map((c) => c.resourceId),
        [a],
      );
      assert.ok(first.body.links.next?.includes('wait=10'), 'links.next keeps the request’s parameters');
      const second = await feedPage(cell.admin, { cursor: first.body.meta.nextCursor!, wait: '10' });
      assert.deepEqual([second.body.data.map((c) => c.resourceId), second.body.links.next], [[b], null]);
      assert.equal(waitersOf(cell.v1).size, 0);
    });

    it('wait must be an integer 0-30 in decimal digits: 400 validation_failed naming the parameter', async () => {
      for (const wait of ['31', '-1', 'abc', '1.5', '', '1e1', ' 1']) {
        const reply = await feedPage(cell.admin, { wait });
        assertProblem(reply, 400, 'validation_failed');
        assert.equal(errorOf(reply).source?.parameter, 'wait', `${JSON.stringify(wait)}: ${JSON.stringify(reply.body)}`);
      }
      const start = await head();
      const zero = await feedPage(cell.admin, { cursor: start, wait: '0' });
      assert.deepEqual([zero.status, zero.body.data, zero.body.meta.nextCursor], [200, [], start], 'wait=0 answers at once, as without it');
    });

    it('a client that goes away ends its wait and frees its waiter', async () => {
      const start = await head();
      const client = new AbortController();
      const waiting = fetch(`${cell.v1.url}/v1/changes?${new URLSearchParams({ cursor: start, wait: '30' })}`, { headers: { authorization: `Bearer ${cell.admin}` }, signal: client.signal });
      await held(1);
      client.abort();
      await assert.rejects(waiting, { name: 'AbortError' });
      await released();
      assert.equal((await feedPage(cell.admin, { cursor: start })).status, 200, 'the instance serves on');
    });

    it('a wait the connection’s idle timeout would cut is shortened to fit it: an answer, never a closed connection', async () => {
      // Nothing flows while a request is held: 5 s of idle timeout leave 1 s of wait besides a read on either side.
      const idleConfig: AppConfig = { ...cell.config, http: { ...cell.config.http, idleTimeoutMs: 5_000 } };
      const short = await startApp((c) => createApiV1App(c), idleConfig);
      try {
        const start = await head();
        const reply = await feedPage(cell.admin, { cursor: start, wait: '30' }, short);
        assert.deepEqual([reply.status, reply.body.data, reply.body.meta.nextCursor], [200, [], start]);
      } finally {
        await short.close();
      }
    });

    it('shutdown answers held requests with their current page at once', async () => {
      const extra = await startApp((c) => createApiV1App(c), cell.config);
      const start = await head();
      const waiting = feedPage(cell.admin, { cursor: start, wait: '30' }, extra);
      await held(1, extra);
      // Without ending the waits, closing would wait out the 30 s: the test fails at 25 s instead.
      const bound = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('shutdown waited for the held request')), 25_000).unref());
      await Promise.race([extra.close(), bound]);
      const reply = await Promise.race([waiting, bound]);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual([reply.body.data, reply.body.links.next, reply.body.meta.nextCursor], [[], null, start]);
    });
  });

  describe('deep feed', () => {
    it('reads bounded windows: a page of a mostly filtered-out feed may be short or empty but always advances', async () => {
      const start = await head({ types: 'tasks' });
      const tag = await createTag();
      // 12,000 events the reader may not see (allocated like appendOutboxEvent, already relayed).
      await cell.database.prisma.$executeRaw`
        INSERT INTO outbox_events (workspace_id, sequence, aggregate_type, aggregate_id, event_type, payload, published_at)
        SELECT ${cell.workspaceId}::uuid, next_event_sequence(${cell.workspaceId}::uuid), 'tag', ${tag}::uuid, 'tag.updated', '{}'::jsonb, now()
        FROM generate_series(1, 12000)`;
      const task = await createTask();
      const reader = await cell.mint(['changes:read', 'tasks:read']);
      let position = start;
      const pages: number[] = [];
      const seen: Change[] = [];
      for (;;) {
        const reply = await feedPage(reader, { cursor: position, limit: '10', types: 'tasks' });
        assert.equal(reply.status, 200);
        assert.notEqual(reply.body.meta.nextCursor, position, 'every page with more to read advances');
        pages.push(reply.body.data.length);
        seen.push(...reply.body.data);
        position = reply.body.meta.nextCursor!;
        if (reply.body.links.next === null) break;
      }
      assert.deepEqual(of(seen, task), ['created']);
      assert.ok(pages.length >= 2 && pages.length <= 4, `bounded reads per page: ${JSON.stringify(pages)}`);
      assert.equal(pages[0], 0, 'the first page scanned only filtered-out events');
      // An unfiltered reader with every scope pages through the same events without gaps.
      const everything = await readFeed(cell.admin, undefined, { types: 'tags' });
      assert.equal(everything.items.filter((c) => c.resourceId === tag).length, 12_001);
    });
  });
});
