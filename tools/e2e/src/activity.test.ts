import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import type { Database } from '@workcell/db';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 activity (issue 13), end to end: a target's history derived from the event log alone (its own events and its
 * comments'), with the actor each event recorded; the target type's read scope on top of activity:read (registry
 * dynamicScopes 'target-resource'); entries limited to what the credential could learn of through the change feed;
 * filters by actor and time; cursor paging; tenancy and resource grants.
 */

const env = useTestEnvironment();

type Item = {
  id: string;
  targetType: string;
  targetId: string;
  kind: string;
  actorType: 'member' | 'service-account' | 'system';
  actorId: string | null;
  summary: string;
  occurredAt: string;
};

describe('v1 activity', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let ownerMemberId: string;
  let v1: RunningApp;
  let admin: string;
  const colleague = { memberId: '', token: '' };
  let otherTaskId: string;
  /** A task with a known history (see beforeAll). */
  let taskId: string;
  const commentText = 'A remark nobody should read in the activity';

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => callApi<T>(v1, method, path, token, body, headers);
  const ok = async <T = { id: string }>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const reply = await call<{ data: T }>(method, path, token, body, headers);
    assert.ok(reply.status >= 200 && reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body?.data;
  };
  const newTask = async (token = admin) => (await ok('POST', '/v1/tasks', token, { title: `Task ${randomUUID()}` }))!.id;
  const activityPath = (type: string, id: string, query = '') => `/v1/activity?targetType=${type}&targetId=${id}${query}`;
  const activity = (type: string, id: string, token = admin, query = '&limit=200') => listAllPages<Item>(v1, activityPath(type, id, query), token);

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId, ownerMemberId, v1 } = cell);
    admin = await cell.mint(V1_SCOPES);
    const scopes = ['activity:read', 'comments:read', 'comments:write', 'tasks:read', 'tasks:write'];
    const member = await cell.member(scopes);
    colleague.memberId = member.memberId;
    colleague.token = await member.mint(scopes);
    // The history: created, retitled (owner); commented, the comment edited (colleague); the comment deleted to
    // moderate (owner, an administrator); completed (colleague).
    taskId = await newTask();
    await ok('PATCH', `/v1/tasks/${taskId}`, admin, { title: 'Retitled', priority: 'high' }, { 'if-match': '"1"' });
    const c = (await ok('POST', '/v1/comments', colleague.token, { targetType: 'tasks', targetId: taskId, body: commentText }))!;
    await ok('PATCH', `/v1/comments/${c.id}`, colleague.token, { body: `${commentText}, edited` });
    await ok('DELETE', `/v1/comments/${c.id}`, admin);
    await ok('POST', `/v1/tasks/${taskId}/complete`, colleague.token, undefined, { 'if-match': '"2"' });
    const ws = await database.prisma.workspace.create({ data: { name: 'Elsewhere', region: cell.config.region, cell: cell.config.cell } });
    otherTaskId = (await database.prisma.task.create({ data: { workspaceId: ws.id, title: 'Foreign task' } })).id;
  });

  afterAll(() => cell?.close());

  it("lists a task's history from the event log, oldest first: its own events and its comments', with the actor each recorded", async () => {
    const items = await activity('tasks', taskId);
    assert.deepEqual(
      items.map((i) => [i.kind, i.actorType, i.actorId]),
      [
        ['created', 'member', ownerMemberId],
        ['updated', 'member', ownerMemberId],
        ['commented', 'member', colleague.memberId],
        ['comment-edited', 'member', colleague.memberId],
        ['comment-deleted', 'member', ownerMemberId],
        ['completed', 'member', colleague.memberId],
      ],
    );
    for (const item of items) {
      assertShape('listActivity', item);
      assert.deepEqual([item.targetType, item.targetId], ['tasks', taskId]);
      assert.ok(!item.summary.includes('remark'), `no comment text in ${item.summary}`);
    }
    assert.match(items[1]!.summary, /Changed: .*title/);
    assert.ok(items[1]!.summary.includes('priority'));
    const events = await database.prisma.outboxEvent.findMany({
      where: { workspaceId, OR: [{ aggregateId: taskId }, { aggregateType: 'comment', payload: { path: ['comment', 'targetId'], equals: taskId } }] },
      orderBy: { sequence: 'asc' },
    });
    assert.deepEqual(
      items.map((i) => i.id),
      events.map((e) => e.id),
      'each entry is one event, by its id, in sequence order',
    );
    assert.deepEqual(
      items.map((i) => i.occurredAt),
      events.map((e) => e.occurredAt.toISOString()),
    );
  });

  describe("the target type's read scope (dynamicScopes 'target-resource')", () => {
    it("a task's activity needs tasks:read: 403 insufficient_scope naming it without, served with it", async () => {
      const refused = await call('GET', activityPath('tasks', taskId), await cell.mint(['activity:read', 'projects:read', 'contacts:read']));
      assertProblem(refused, 403, 'insufficient_scope');
      assert.match(errorOf(refused).detail, /tasks:read/);
      assert.equal((await call('GET', activityPath('tasks', taskId), await cell.mint(['activity:read', 'tasks:read']))).status, 200);
      const noTarget = await call('GET', activityPath('tasks', taskId), await cell.mint(['activity:read']));
      assertProblem(noTarget, 403, 'insufficient_scope');
      assert.match(errorOf(noTarget).detail, /one of contacts:read \| projects:read \| tasks:read/);
      const noActivity = await call('GET', activityPath('tasks', taskId), await cell.mint(['tasks:read', 'comments:read']));
      assertProblem(noActivity, 403, 'insufficient_scope');
      assert.match(errorOf(noActivity).detail, /activity:read/);
    });

    it('shows only the events the credential could learn of through the change feed', async () => {
      const timed = await newTask();
      await ok('POST', `/v1/tasks/${timed}/timer/start`, admin, {});
      await ok('POST', `/v1/tasks/${timed}/timer/stop`, admin);
      await ok('POST', '/v1/comments', admin, { targetType: 'tasks', targetId: timed, body: 'Timed it' });
      const kinds = async (scopes: string[]) => (await activity('tasks', timed, await cell.mint(scopes))).map((i) => i.kind);
      assert.deepEqual(await kinds(['activity:read', 'tasks:read']), ['created']);
      assert.deepEqual(await kinds(['activity:read', 'tasks:read', 'comments:read']), ['created', 'commented']);
      assert.deepEqual(await kinds(['activity:read', 'tasks:read', 'comments:read', 'time-entries:read']), ['created', 'timer-started', 'timer-stopped', 'commented']);
    });
  });

  describe('actors', () => {
    it('a service account is the actor of what its credential did; an event without a recorded actor is the system’s', async () => {
      const sa = await cell.serviceAccount(['activity:read', 'tasks:read', 'tasks:write'], [{ resourceType: 'task', resourceId: null, access: 'write' }]);
      const id = await newTask(sa.token);
      // An event the platform appended by itself (a worker job), or one recorded before actors were: no actor.
      await database.prisma.$executeRaw`
        INSERT INTO outbox_events (workspace_id, sequence, aggregate_type, aggregate_id, event_type, payload)
        VALUES (${workspaceId}::uuid, next_event_sequence(${workspaceId}::uuid), 'task', ${id}::uuid, 'task.updated', '{"changed":["status"]}'::jsonb)`;
      const items = await activity('tasks', id, sa.token);
      assert.deepEqual(
        items.map((i) => [i.kind, i.actorType, i.actorId]),
        [
          ['created', 'service-account', sa.serviceAccountId],
          ['updated', 'system', null],
        ],
      );
    });
  });

  describe('filters', () => {
    it('filters by actor and by time (from inclusive, to exclusive); a cursor is bound to its filters', async () => {
      const all = await activity('tasks', taskId);
      const byColleague = await activity('tasks', taskId, admin, `&actorId=${colleague.memberId}`);
      assert.deepEqual(
        byColleague.map((i) => i.kind),
        ['commented', 'comment-edited', 'completed'],
      );
      assert.deepEqual(
        await activity('tasks', taskId, admin, `&actorId=${ownerMemberId.toUpperCase()}`),
        all.filter((i) => i.actorId === ownerMemberId),
      );
      assert.deepEqual(await activity('tasks', taskId, admin, `&actorId=${randomUUID()}`), []);
      assert.deepEqual(await activity('tasks', taskId, admin, '&actorId=not-a-uuid'), []);
      const pivot = all[2]!.occurredAt;
      const from = await activity('tasks', taskId, admin, `&from=${pivot}`);
      const to = await activity('tasks', taskId, admin, `&to=${pivot}`);
      assert.deepEqual(
        [...to, ...from].map((i) => i.id),
        all.map((i) => i.id),
        'from and to split the history at the same instant',
      );
      assert.ok(from.every((i) => i.occurredAt >= pivot) && to.every((i) => i.occurredAt < pivot));
      assert.deepEqual(await activity('tasks', taskId, admin, `&from=${pivot}&to=${pivot}`), []);
      const first = await call<ListBody<Item>>('GET', activityPath('tasks', taskId, `&actorId=${colleague.memberId}&limit=1`), admin);
      assert.ok(first.body.meta.nextCursor);
      const refiltered = await call('GET', activityPath('tasks', taskId, `&cursor=${first.body.meta.nextCursor}`), admin);
      assertProblem(refiltered, 400, 'validation_failed');
      assert.equal(errorOf(refiltered).source?.parameter, 'cursor');
      for (const [query, parameter] of [
        ['&from=yesterday', 'from'],
        ['&to=2026-13-01T00:00:00Z', 'to'],
        ['&actorId=has%20space', 'actorId'],
        ['&limit=0', 'limit'],
        ['&kind=created', undefined],
      ] as const) {
        const bad = await call('GET', activityPath('tasks', taskId, query), admin);
        assertProblem(bad, 400, 'validation_failed');
        if (parameter) assert.equal(errorOf(bad).source?.parameter, parameter, query);
      }
    });
  });

  describe('paging, targets and tenancy', () => {
    it('pages with a cursor in sequence order without gaps or repeats; links.next keeps the target', async () => {
      const id = await newTask();
      for (let revision = 1; revision <= 7; revision++) await ok('PATCH', `/v1/tasks/${id}`, admin, { title: `Version ${revision}` }, { 'if-match': `"${revision}"` });
      const whole = await activity('tasks', id);
      assert.equal(whole.length, 8);
      const first = await call<ListBody<Item>>('GET', activityPath('tasks', id, '&limit=3'), admin);
      assert.deepEqual([first.body.data.length, first.body.meta.limit], [3, 3]);
      assert.ok(first.body.links.next?.includes('targetId='));
      const paged = await listAllPages<Item>(v1, activityPath('tasks', id, '&limit=3'), admin);
      assert.deepEqual(paged, whole);
      assert.equal(new Set(paged.map((i) => i.id)).size, paged.length);
    });

    it('covers contacts and projects too, each with its own read scope', async () => {
      const contact = (await ok<{ id: string; version: string }>('POST', '/v1/contacts', admin, { kind: 'person', name: 'Ada' }))!;
      await ok('PATCH', `/v1/contacts/${contact.id}`, admin, { expectedVersion: contact.version, phone: '+49 30 1234' });
      await ok('POST', '/v1/comments', admin, { targetType: 'contacts', targetId: contact.id, body: 'Called Ada' });
      const project = (await ok('POST', '/v1/projects', admin, { name: 'Apollo' }))!;
      assert.deepEqual(
        (await activity('contacts', contact.id)).map((i) => [i.kind, i.targetType]),
        [
          ['created', 'contacts'],
          ['updated', 'contacts'],
          ['commented', 'contacts'],
        ],
      );
      assert.deepEqual(
        (await activity('projects', project.id)).map((i) => i.kind),
        ['created'],
      );
      const contactsOnly = await cell.mint(['activity:read', 'contacts:read']);
      assert.equal((await call('GET', activityPath('contacts', contact.id), contactsOnly)).status, 200);
      assertProblem(await call('GET', activityPath('projects', project.id), contactsOnly), 403, 'insufficient_scope');
    });

    it('answers 404 for a target that is not in the workspace, and a service account sees only targets its grants let it read', async () => {
      for (const id of [otherTaskId, randomUUID(), 'not-a-uuid']) assertProblem(await call('GET', activityPath('tasks', id), admin), 404, 'not_found');
      assertProblem(await call('GET', activityPath('projects', taskId), admin), 404, 'not_found');
      assert.equal(await database.prisma.outboxEvent.count({ where: { aggregateId: otherTaskId } }), 0);
      const missing = await call('GET', '/v1/activity?targetType=tasks', admin);
      assertProblem(missing, 400, 'validation_failed');
      assert.equal(errorOf(missing).source?.parameter, 'targetId');
      const sa = await cell.serviceAccount(['activity:read', 'tasks:read'], [{ resourceType: 'task', resourceId: taskId, access: 'read' }]);
      assert.equal((await call('GET', activityPath('tasks', taskId), sa.token)).status, 200);
      assertProblem(await call('GET', activityPath('tasks', await newTask()), sa.token), 404, 'not_found');
    });
  });
});
