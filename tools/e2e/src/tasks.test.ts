import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { issueCredential, inTransaction } from '@workcell/db';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { callApi, errorOf, type ErrorItem, type ListBody, type Reply, type Schema } from './support/v1.js';

/**
 * v1 tasks (issue 6), end to end against the running services: CRUD, archive/restore, complete/reopen/move
 * (If-Match on the strong revision), the member's timer, scopes, tenancy, validation, preconditions,
 * idempotent create replay, outbox events in the mutation's transaction, pagination, and no lost updates
 * under concurrent writers.
 */

const env = useTestEnvironment();

type Task = Schema<'Task'>;
type TimeEntry = Schema<'TimeEntry'>;

describe('v1 tasks', () => {
  const cell = useV1Cell(env);
  const { mint } = cell;
  let readOnly: string;
  let serviceAccountToken: string;
  let projectId: string;
  let listId: string;
  let tagId: string;
  const other = { workspaceId: '', taskId: '', projectId: '', listId: '', memberId: '', tagId: '' };
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => callApi<T>(cell.v1, method, path, token, body, headers);
  const pointersOf = (reply: Reply) => (reply.body as { errors: ErrorItem[] }).errors.map((e) => e.source?.pointer ?? '');
  const create = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: Task }>('POST', '/v1/tasks', cell.admin, { title: `Task ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const get = async (id: string, token = cell.admin) => {
    const reply = await call<{ data: Task }>('GET', `/v1/tasks/${id}`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply;
  };
  const ifMatch = (revision: string | number) => ({ 'if-match': `"${revision}"` });
  const outboxCount = (aggregateId: string, eventType?: string) =>
    cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, aggregateId, ...(eventType ? { eventType } : {}) } });
  const runningEntries = (memberId = cell.ownerMemberId) => cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId, memberId, stoppedAt: null } });

  beforeAll(async () => {
    readOnly = await mint(['tasks:read']);
    const serviceAccountId = (await cell.database.prisma.serviceAccount.findFirstOrThrow({ where: { workspaceId: cell.workspaceId } })).id;
    serviceAccountToken = (
      await inTransaction(cell.database, (tx) =>
        issueCredential(tx, cell.config, { workspaceId: cell.workspaceId, kind: 'service_account', name: 'sa', scopes: ['tasks:read', 'time-entries:write'], serviceAccountId }),
      )
    ).token;
    projectId = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Home' } })).id;
    listId = (await cell.database.prisma.list.create({ data: { workspaceId: cell.workspaceId, name: 'Inbox' } })).id;
    tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: cell.workspaceId, name: 'red' } })).id;
    other.workspaceId = await cell.otherWorkspace();
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign' } })).id;
    other.listId = (await cell.database.prisma.list.create({ data: { workspaceId: other.workspaceId, name: 'Foreign list' } })).id;
    other.tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: other.workspaceId, name: 'foreign' } })).id;
    other.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign task' } })).id;
    const user = await cell.database.prisma.user.create({ data: { email: 'elsewhere@tasks.test', name: 'Elsewhere' } });
    other.memberId = (await cell.database.prisma.workspaceMember.create({ data: { workspaceId: other.workspaceId, userId: user.id } })).id;
  });

  describe('createTask, getTask, listTasks', () => {
    it('creates with 201, Location, ETag and every attribute, and writes task.created in the same transaction', async () => {
      const reply = await call<{ data: Task }>('POST', '/v1/tasks', cell.admin, {
        title: 'Write the spec',
        description: 'all of it',
        priority: 'high',
        assigneeIds: [cell.ownerMemberId],
        dueAt: '2026-03-04T10:30:00Z',
        estimateMinutes: 90,
        tagIds: [tagId],
        projectId,
        listId,
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const t = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/tasks/${t.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual(
        [t.title, t.description, t.priority, t.assigneeIds, t.dueAt, t.estimateMinutes, t.tagIds, t.projectId, t.listId, t.status, t.revision, t.timerStartedAt],
        ['Write the spec', 'all of it', 'high', [cell.ownerMemberId], '2026-03-04T10:30:00.000Z', 90, [tagId], projectId, listId, 'open', '1', null],
      );
      const row = await cell.database.prisma.task.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: t.id } } });
      assert.equal(row.dueDate?.toISOString().slice(0, 10), '2026-03-04', 'due_date follows due_at for the v0 calendar');
      assert.equal(await outboxCount(t.id, 'task.created'), 1);
      const got = await get(t.id, readOnly);
      assert.equal(got.headers.get('etag'), '"1"');
      assert.deepEqual(got.body.data, t);
    });

    it('replays an idempotent create with the same key', async () => {
      const key = `task-${randomUUID()}`;
      const first = await call<{ data: Task }>('POST', '/v1/tasks', cell.admin, { title: 'Once' }, { 'idempotency-key': key });
      const second = await call<{ data: Task }>('POST', '/v1/tasks', cell.admin, { title: 'Once' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId, title: 'Once' } }), 1);
    });

    it('refuses invalid bodies and foreign references with 400 and a pointer, writing nothing', async () => {
      const before = await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId } });
      const cases: [unknown, string][] = [
        [{}, '/title'],
        [{ title: 'x', priority: 'sometime' }, '/priority'],
        [{ title: 'x', estimateMinutes: -1 }, '/estimateMinutes'],
        [{ title: 'x', dueAt: 'tomorrow' }, '/dueAt'],
        [{ title: 'x', status: 'completed' }, ''],
        [{ title: 'x', projectId: other.projectId }, '/projectId'],
        [{ title: 'x', listId: other.listId }, '/listId'],
        [{ title: 'x', assigneeIds: [other.memberId] }, '/assigneeIds/0'],
        [{ title: 'x', assigneeIds: [cell.ownerMemberId, cell.ownerMemberId] }, '/assigneeIds/1'],
        [{ title: 'x', tagIds: [other.tagId] }, '/tagIds/0'],
      ];
      for (const [body, pointer] of cases) {
        const reply = await call('POST', '/v1/tasks', cell.admin, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${reply.status} ${JSON.stringify(reply.body)}`);
        if (pointer) assert.ok(pointersOf(reply).includes(pointer), `${JSON.stringify(body)}: ${JSON.stringify(pointersOf(reply))}`);
      }
      assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('scopes: reads need tasks:read, writes tasks:write', async () => {
      const t = await create();
      const noRead = await call('GET', `/v1/tasks/${t.id}`, await mint(['projects:read']));
      assert.equal(noRead.status, 403);
      assert.equal(errorOf(noRead).code, 'insufficient_scope');
      const noWrite = await call('POST', '/v1/tasks', readOnly, { title: 'nope' });
      assert.equal(noWrite.status, 403);
      assert.equal(errorOf(noWrite).code, 'insufficient_scope');
    });

    it('another workspace’s task answers 404 to every operation, exactly like a missing one', async () => {
      for (const id of [other.taskId, randomUUID()]) {
        assert.equal((await call('GET', `/v1/tasks/${id}`, cell.admin)).status, 404);
        assert.equal((await call('PATCH', `/v1/tasks/${id}`, cell.admin, { title: 'x' }, ifMatch(1))).status, 404);
        assert.equal((await call('DELETE', `/v1/tasks/${id}`, cell.admin, undefined, ifMatch(1))).status, 404);
        assert.equal((await call('POST', `/v1/tasks/${id}/restore`, cell.admin, undefined, ifMatch(1))).status, 404);
        assert.equal((await call('POST', `/v1/tasks/${id}/complete`, cell.admin, undefined, ifMatch(1))).status, 404);
        assert.equal((await call('POST', `/v1/tasks/${id}/move`, cell.admin, { projectId: null }, ifMatch(1))).status, 404);
        assert.equal((await call('POST', `/v1/tasks/${id}/timer/start`, cell.admin)).status, 404);
        assert.equal((await call('POST', `/v1/tasks/${id}/timer/stop`, cell.admin)).status, 404);
      }
      const foreign = await cell.database.prisma.task.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: other.taskId } } });
      assert.equal(foreign.revision, 1);
      assert.equal(foreign.archivedAt, null);
    });

    it('lists with cursor pages and filters, excluding archived tasks until restored', async () => {
      const project = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Paged' } })).id;
      const tasks = [];
      for (let i = 0; i < 5; i++) tasks.push(await create({ projectId: project }));
      const seen: string[] = [];
      let path: string | null = `/v1/tasks?projectId=${project}&limit=2`;
      let pages = 0;
      while (path) {
        const page: Reply<ListBody<Task>> = await call<ListBody<Task>>('GET', path, readOnly);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        seen.push(...page.body.data.map((t) => t.id));
        path = page.body.links.next;
        pages++;
      }
      assert.equal(pages, 3);
      assert.deepEqual(
        seen,
        tasks.map((t) => t.id),
      );

      const archived = tasks[1]!;
      const del = await call('DELETE', `/v1/tasks/${archived.id}`, cell.admin, undefined, ifMatch(1));
      assert.equal(del.status, 204, JSON.stringify(del.body));
      assert.equal(await outboxCount(archived.id, 'task.archived'), 1);
      const row = await cell.database.prisma.task.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: archived.id } } });
      assert.ok(row.archivedAt, 'archive never deletes');
      const afterArchive = await call<ListBody<Task>>('GET', `/v1/tasks?projectId=${project}&limit=200`, readOnly);
      assert.ok(!afterArchive.body.data.some((t) => t.id === archived.id));
      assert.ok((await get(archived.id)).body.data.archivedAt);

      const again = await call('DELETE', `/v1/tasks/${archived.id}`, cell.admin, undefined, ifMatch(2));
      assert.equal(again.status, 409);
      const editArchived = await call('PATCH', `/v1/tasks/${archived.id}`, cell.admin, { title: 'x' }, ifMatch(2));
      assert.equal(editArchived.status, 409);

      const restored = await call<{ data: Task }>('POST', `/v1/tasks/${archived.id}/restore`, cell.admin, undefined, ifMatch(2));
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(await outboxCount(archived.id, 'task.restored'), 1);
      const afterRestore = await call<ListBody<Task>>('GET', `/v1/tasks?projectId=${project}&limit=200`, readOnly);
      assert.ok(afterRestore.body.data.some((t) => t.id === archived.id));
      const restoreAgain = await call('POST', `/v1/tasks/${archived.id}/restore`, cell.admin, undefined, ifMatch(3));
      assert.equal(restoreAgain.status, 409);

      const other2 = await call<ListBody<Task>>('GET', `/v1/tasks?assigneeId=${other.memberId}`, readOnly);
      assert.deepEqual(other2.body.data, []);
      const badFilter = await call('GET', '/v1/tasks?status=sometime', readOnly);
      assert.equal(badFilter.status, 400);
    });
  });

  describe('updateTask and the other If-Match writes', () => {
    it('updates the sent attributes with a fresh ETag and writes task.updated', async () => {
      const t = await create({ description: 'stay' });
      const reply = await call<{ data: Task }>('PATCH', `/v1/tasks/${t.id}`, cell.admin, { title: 'New', priority: 'urgent', assigneeIds: [], estimateMinutes: null }, ifMatch(1));
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.title, reply.body.data.description, reply.body.data.priority, reply.body.data.revision], ['New', 'stay', 'urgent', '2']);
      assert.equal(await outboxCount(t.id, 'task.updated'), 1);
    });

    it('428 without If-Match, 400 for weak / list / * / junk, 412 when stale, and nothing changes', async () => {
      const t = await create();
      const before = await outboxCount(t.id);
      const missing = await call('PATCH', `/v1/tasks/${t.id}`, cell.admin, { title: 'x' });
      assert.equal(missing.status, 428);
      assert.equal(errorOf(missing).code, 'precondition_required');
      for (const value of ['W/"1"', '"1", "2"', '*', '1']) {
        const bad = await call('PATCH', `/v1/tasks/${t.id}`, cell.admin, { title: 'x' }, { 'if-match': value });
        assert.equal(bad.status, 400, value);
        assert.equal(errorOf(bad).code, 'invalid_precondition');
      }
      for (const [method, path] of [
        ['DELETE', ''],
        ['POST', '/complete'],
        ['POST', '/restore'],
      ] as const) {
        const noHeader = await call(method, `/v1/tasks/${t.id}${path}`, cell.admin);
        assert.equal(noHeader.status, 428, `${method} ${path}`);
      }
      const stale = await call('PATCH', `/v1/tasks/${t.id}`, cell.admin, { title: 'x' }, ifMatch(5));
      assert.equal(stale.status, 412);
      assert.equal(errorOf(stale).code, 'precondition_failed');
      const staleArchive = await call('DELETE', `/v1/tasks/${t.id}`, cell.admin, undefined, ifMatch(5));
      assert.equal(staleArchive.status, 412);
      assert.deepEqual((await get(t.id)).body.data, t);
      assert.equal(await outboxCount(t.id), before);
    });

    it('refuses unknown and read-only attributes (projectId moves with moveTask)', async () => {
      const t = await create();
      for (const body of [{ status: 'completed' }, { revision: '3' }, { projectId }, { completedAt: null }, { bogus: 1 }, {}]) {
        const reply = await call('PATCH', `/v1/tasks/${t.id}`, cell.admin, body, ifMatch(1));
        assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(reply.body)}`);
      }
      const foreign = await call('PATCH', `/v1/tasks/${t.id}`, cell.admin, { assigneeIds: [other.memberId] }, ifMatch(1));
      assert.equal(foreign.status, 400);
      assert.deepEqual(pointersOf(foreign), ['/assigneeIds/0']);
      assert.equal((await get(t.id)).body.data.revision, '1');
    });

    it('completes, reopens and moves with If-Match, each writing its event', async () => {
      const t = await create();
      const done = await call<{ data: Task }>('POST', `/v1/tasks/${t.id}/complete`, cell.admin, undefined, ifMatch(1));
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.data.status, 'completed');
      assert.ok(done.body.data.completedAt);
      assert.equal(done.headers.get('etag'), '"2"');
      assert.equal((await call('POST', `/v1/tasks/${t.id}/complete`, cell.admin, undefined, ifMatch(2))).status, 409);
      const completedList = await call<ListBody<Task>>('GET', '/v1/tasks?status=completed&limit=200', readOnly);
      assert.ok(completedList.body.data.some((x) => x.id === t.id));
      const reopened = await call<{ data: Task }>('POST', `/v1/tasks/${t.id}/reopen`, cell.admin, undefined, ifMatch(2));
      assert.equal(reopened.status, 200);
      assert.deepEqual([reopened.body.data.status, reopened.body.data.completedAt], ['open', null]);
      assert.equal((await call('POST', `/v1/tasks/${t.id}/reopen`, cell.admin, undefined, ifMatch(3))).status, 409);
      const moved = await call<{ data: Task }>('POST', `/v1/tasks/${t.id}/move`, cell.admin, { projectId, listId }, ifMatch(3));
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.deepEqual([moved.body.data.projectId, moved.body.data.listId, moved.body.data.revision], [projectId, listId, '4']);
      const foreignMove = await call('POST', `/v1/tasks/${t.id}/move`, cell.admin, { projectId: other.projectId }, ifMatch(4));
      assert.equal(foreignMove.status, 400);
      assert.deepEqual(pointersOf(foreignMove), ['/projectId']);
      const missingProject = await call('POST', `/v1/tasks/${t.id}/move`, cell.admin, {}, ifMatch(4));
      assert.equal(missingProject.status, 400);
      for (const event of ['task.completed', 'task.reopened', 'task.moved']) assert.equal(await outboxCount(t.id, event), 1, event);
    });
  });

  describe('concurrency: no lost updates', () => {
    it('20 parallel updates with the same fresh ETag: exactly one 200, nineteen 412, revision + 1', async () => {
      const t = await create();
      const { headers } = await get(t.id);
      const etag = headers.get('etag')!;
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => call<{ data: Task }>('PATCH', `/v1/tasks/${t.id}`, cell.admin, { description: `writer ${i}` }, { 'if-match': etag })));
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 412).length, 19, JSON.stringify(statuses));
      const winner = replies.find((r) => r.status === 200)!;
      const final = (await get(t.id)).body.data;
      assert.equal(final.revision, '2');
      assert.equal(final.description, winner.body.data.description);
      assert.equal(await outboxCount(t.id, 'task.updated'), 1);
    });

    it('20 read-then-write writers retrying on 412: all 20 appends survive', async () => {
      const t = await create({ description: '' });
      const writer = async (i: number) => {
        for (let attempt = 0; attempt < 200; attempt++) {
          const read = await get(t.id);
          const current = read.body.data.description ?? '';
          const reply = await call('PATCH', `/v1/tasks/${t.id}`, cell.admin, { description: `${current}[${i}]` }, { 'if-match': read.headers.get('etag')! });
          if (reply.status === 200) return attempt;
          assert.equal(reply.status, 412, JSON.stringify(reply.body));
        }
        throw new Error(`writer ${i} never won`);
      };
      await Promise.all(Array.from({ length: 20 }, (_, i) => writer(i)));
      const final = (await get(t.id)).body.data;
      assert.equal(final.revision, '21');
      for (let i = 0; i < 20; i++) assert.ok(final.description!.includes(`[${i}]`), `append ${i} lost: ${final.description}`);
      assert.equal(final.description!.match(/\[\d+\]/g)!.length, 20);
      assert.equal(await outboxCount(t.id, 'task.updated'), 20);
    });
  });

  describe('timers', () => {
    it('starts a running entry for the member, refuses a second start (any task) and changes nothing', async () => {
      const t = await create({ projectId });
      const u = await create();
      const started = await call<{ data: TimeEntry }>('POST', `/v1/tasks/${t.id}/timer/start`, cell.admin, { note: 'focus' });
      assert.equal(started.status, 201, JSON.stringify(started.body));
      const entry = started.body.data;
      assert.equal(started.headers.get('location'), `/v1/time-entries/${entry.id}`);
      assert.deepEqual([entry.taskId, entry.projectId, entry.userId, entry.endedAt, entry.note], [t.id, projectId, cell.ownerMemberId, null, 'focus']);
      assert.equal(await outboxCount(t.id, 'task.timer_started'), 1);
      assert.equal((await get(t.id)).body.data.timerStartedAt, entry.startedAt);
      assert.equal((await get(u.id)).body.data.timerStartedAt, null);

      for (const task of [t, u]) {
        const twice = await call('POST', `/v1/tasks/${task.id}/timer/start`, cell.admin);
        assert.equal(twice.status, 409);
        assert.equal(errorOf(twice).code, 'timer_already_running');
      }
      assert.equal(await runningEntries(), 1);
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId, taskId: { in: [t.id, u.id] } } }), 1);

      const wrongTask = await call('POST', `/v1/tasks/${u.id}/timer/stop`, cell.admin);
      assert.equal(wrongTask.status, 409);
      assert.equal(errorOf(wrongTask).code, 'timer_not_running');

      const stopped = await call<{ data: TimeEntry }>('POST', `/v1/tasks/${t.id}/timer/stop`, cell.admin);
      assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
      assert.equal(stopped.body.data.id, entry.id);
      assert.ok(stopped.body.data.endedAt);
      assert.ok(stopped.body.data.durationSeconds >= 0);
      assert.equal(await runningEntries(), 0);
      assert.equal(await outboxCount(t.id, 'task.timer_stopped'), 1);

      const stopAgain = await call('POST', `/v1/tasks/${t.id}/timer/stop`, cell.admin);
      assert.equal(stopAgain.status, 409);
      assert.equal(errorOf(stopAgain).code, 'timer_not_running');
      assert.equal(await outboxCount(t.id, 'task.timer_stopped'), 1);
    });

    it('concurrent starts create exactly one running entry', async () => {
      const t = await create();
      const replies = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/v1/tasks/${t.id}/timer/start`, cell.admin)));
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 409).length, 9, JSON.stringify(statuses));
      assert.equal(await runningEntries(), 1);
      assert.equal((await call('POST', `/v1/tasks/${t.id}/timer/stop`, cell.admin)).status, 200);
    });

    it('a service-account principal is refused with 403 forbidden; the scopes are required', async () => {
      const t = await create();
      const sa = await call('POST', `/v1/tasks/${t.id}/timer/start`, serviceAccountToken);
      assert.equal(sa.status, 403);
      assert.equal(errorOf(sa).code, 'forbidden');
      const saStop = await call('POST', `/v1/tasks/${t.id}/timer/stop`, serviceAccountToken);
      assert.equal(saStop.status, 403);
      const noScope = await call('POST', `/v1/tasks/${t.id}/timer/start`, readOnly);
      assert.equal(noScope.status, 403);
      assert.equal(errorOf(noScope).code, 'insufficient_scope');
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId, taskId: t.id } }), 0);
      const badBody = await call('POST', `/v1/tasks/${t.id}/timer/start`, cell.admin, { note: 'x', extra: true });
      assert.equal(badBody.status, 400);
      assert.equal(await runningEntries(), 0);
    });
  });
});
