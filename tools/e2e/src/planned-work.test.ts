import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 planned work end to end: the bounded list (filters, window overlap, 400 naming the parameter, cursor
 * pages), a task's schedule with its version, and the atomic, fully guarded replacement (compare-and-set
 * with expectedVersion: 409 when stale, exactly one winner of concurrent replacements, every window
 * validated first with a pointer per offending entry and nothing written on any failure), scopes, tenancy,
 * outbox events and resource grants (through the task's grant).
 */

const env = useTestEnvironment();

type Window = { id: string; taskId: string; projectId: string | null; memberId: string; startsAt: string; endsAt: string; plannedMinutes: number };
type Schedule = { taskId: string; windows: Window[]; version: string };

describe('v1 planned work', () => {
  const cell = useV1Cell(env);
  let member: string;
  let second: string;
  let disabled: string;
  let projectId: string;
  const other = { workspaceId: '', taskId: '', memberId: '' };
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, app: RunningApp = cell.v1) => callApi<T>(app, method, path, token, body);
  const newTask = async (data: Record<string, unknown> = {}) => (await cell.database.prisma.task.create({ data: { workspaceId: cell.workspaceId, title: `Task ${++seq}`, projectId, ...data } })).id;
  const schedule = async (taskId: string, token = cell.admin) => {
    const reply = await call<{ data: Schedule }>('GET', `/v1/tasks/${taskId}/planned-work`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const win = (memberId: string, start: string, end: string, plannedMinutes = 60) => ({ memberId, startsAt: start, endsAt: end, plannedMinutes });
  const replace = (taskId: string, expectedVersion: string, windows: unknown[], token = cell.admin, app: RunningApp = cell.v1) =>
    call<{ data: Schedule }>('PUT', `/v1/tasks/${taskId}/planned-work`, token, { expectedVersion, windows }, app);
  type Row = { id: string; memberId: string; windowStart: Date; windowEnd: Date; minutes: number };
  const rows = (taskId: string): Promise<Row[]> => cell.database.prisma.plannedWork.findMany({ where: { taskId }, orderBy: { id: 'asc' } });
  const addMember = async (status: 'active' | 'disabled' = 'active', ws = cell.workspaceId) => {
    const user = await cell.database.prisma.user.create({ data: { email: `pw-${randomUUID()}@example.test`, name: 'Planner' } });
    return (await cell.database.prisma.workspaceMember.create({ data: { workspaceId: ws, userId: user.id, status, ...(status === 'disabled' ? { disabledAt: new Date() } : {}) } })).id;
  };

  beforeAll(async () => {
    member = cell.ownerMemberId;
    second = await addMember();
    disabled = await addMember('disabled');
    projectId = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Planning project' } })).id;
    other.workspaceId = await cell.otherWorkspace();
    other.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign task' } })).id;
    other.memberId = await addMember('active', other.workspaceId);
    await cell.database.prisma.plannedWork.create({
      data: { workspaceId: other.workspaceId, taskId: other.taskId, memberId: other.memberId, windowStart: new Date('2031-01-01T09:00:00Z'), windowEnd: new Date('2031-01-01T10:00:00Z'), minutes: 60 },
    });
  });

  describe('scopes', () => {
    it('each operation answers 403 insufficient_scope naming its scope', async () => {
      const id = randomUUID();
      const token = await cell.mint(V1_SCOPES.filter((s) => !s.startsWith('planned-work:')));
      for (const [method, path, scope, body] of [
        ['GET', '/v1/planned-work?from=2031-01-01T00:00:00Z&to=2031-02-01T00:00:00Z', 'planned-work:read', undefined],
        ['GET', `/v1/tasks/${id}/planned-work`, 'planned-work:read', undefined],
        ['PUT', `/v1/tasks/${id}/planned-work`, 'planned-work:write', { expectedVersion: 'x', windows: [] }],
      ] as const) {
        const reply = await call(method, path, token, body);
        assertProblem(reply, 403, 'insufficient_scope');
        assert.match(errorOf(reply).detail, new RegExp(scope));
      }
      const reader = await cell.mint(['planned-work:read']);
      const taskId = await newTask();
      const { version } = await schedule(taskId, reader);
      assertProblem(await replace(taskId, version, [], reader), 403, 'insufficient_scope');
    });
  });

  describe('getTaskPlannedWork and replaceTaskPlannedWork', () => {
    it('reads an empty schedule with a version, replaces it whole, and the version moves on', async () => {
      const taskId = await newTask();
      const empty = await schedule(taskId);
      assertShape('getTaskPlannedWork', empty);
      assert.deepEqual(empty.windows, []);
      const reply = await replace(taskId, empty.version, [win(member, '2031-03-02T09:00:00+01:00', '2031-03-02T12:00:00+01:00', 120), win(second, '2031-03-02T09:00:00Z', '2031-03-02T10:00:00Z')]);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const replaced = reply.body.data;
      assertShape('replaceTaskPlannedWork', replaced);
      for (const w of replaced.windows) assertShape('listPlannedWork', w);
      assert.notEqual(replaced.version, empty.version);
      assert.deepEqual(
        replaced.windows.map((w) => [w.memberId, w.startsAt, w.endsAt, w.plannedMinutes, w.taskId, w.projectId]),
        [
          [member, '2031-03-02T08:00:00.000Z', '2031-03-02T11:00:00.000Z', 120, taskId, projectId],
          [second, '2031-03-02T09:00:00.000Z', '2031-03-02T10:00:00.000Z', 60, taskId, projectId],
        ],
      );
      assert.deepEqual(await schedule(taskId), replaced);
      const events = await cell.outbox(taskId, 'planned_work.replaced');
      assert.equal(events.length, 1);
      assert.equal((events[0]!.payload as { previousVersion: string }).previousVersion, empty.version);

      // A second replacement drops the old windows entirely (never a merge).
      const next = await replace(taskId, replaced.version, [win(second, '2031-04-01T09:00:00Z', '2031-04-01T09:30:00Z', 30)]);
      assert.equal(next.status, 200);
      assert.deepEqual(
        (await rows(taskId)).map((r) => r.memberId),
        [second],
      );
      // Emptying works too.
      assert.equal((await replace(taskId, next.body.data.version, [])).status, 200);
      assert.equal((await rows(taskId)).length, 0);
    });

    it('a stale expectedVersion is 409 version_conflict and changes nothing; a replay after success fails the check', async () => {
      const taskId = await newTask();
      const { version } = await schedule(taskId);
      const body = [win(member, '2031-05-01T09:00:00Z', '2031-05-01T10:00:00Z')];
      assert.equal((await replace(taskId, version, body)).status, 200);
      const before = await rows(taskId);
      assertProblem(await replace(taskId, version, body), 409, 'version_conflict');
      assertProblem(await replace(taskId, 'not-a-version', [win(second, '2031-05-01T09:00:00Z', '2031-05-01T10:00:00Z')]), 409, 'version_conflict');
      assert.deepEqual(await rows(taskId), before);
      assert.equal((await cell.outbox(taskId, 'planned_work.replaced')).length, 1);
    });

    it('of 20 concurrent replacements with one version on two instances exactly one wins; the others get 409', async () => {
      const taskId = await newTask();
      const { version } = await schedule(taskId);
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          replace(taskId, version, [win(member, `2031-06-${String(i + 1).padStart(2, '0')}T09:00:00Z`, `2031-06-${String(i + 1).padStart(2, '0')}T10:00:00Z`)], cell.admin, i % 2 ? cell.v1 : cell.v1b),
        ),
      );
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 409).length, 19, JSON.stringify(statuses));
      const winner = replies.find((r) => r.status === 200)!.body.data;
      assert.deepEqual(
        (await rows(taskId)).map((r) => r.windowStart.toISOString()),
        [winner.windows[0]!.startsAt],
      );
      assert.equal((await cell.outbox(taskId, 'planned_work.replaced')).length, 1);
    });

    it('validates every window first: 400 with a pointer per offending entry, and nothing is written', async () => {
      const taskId = await newTask();
      const { version } = await schedule(taskId);
      const good = win(member, '2031-07-01T09:00:00Z', '2031-07-01T10:00:00Z');
      assert.equal((await replace(taskId, version, [good])).status, 200);
      const current = await schedule(taskId);
      const before = await rows(taskId);
      const reply = await replace(taskId, current.version, [
        win(member, '2031-07-02T09:00:00Z', '2031-07-02T11:00:00Z'),
        win(member, '2031-07-02T10:00:00Z', '2031-07-02T09:00:00Z'),
        win(randomUUID(), '2031-07-03T09:00:00Z', '2031-07-03T10:00:00Z'),
        win(disabled, '2031-07-03T09:00:00Z', '2031-07-03T10:00:00Z'),
        win(other.memberId, '2031-07-03T09:00:00Z', '2031-07-03T10:00:00Z'),
        win(member, '2031-07-02T10:30:00Z', '2031-07-02T12:00:00Z'),
        win(second, '2031-07-04T09:00:00Z', '2031-07-04T09:30:00Z', 31),
        win(second, '2031-07-02T10:30:00Z', '2031-07-02T12:00:00Z'),
      ]);
      assertProblem(reply, 400, 'validation_failed');
      const pointers = (reply.body as unknown as { errors: { source?: { pointer?: string } }[] }).errors.map((e) => e.source?.pointer).sort();
      assert.deepEqual(pointers, ['/windows/1/endsAt', '/windows/2/memberId', '/windows/3/memberId', '/windows/4/memberId', '/windows/5/startsAt', '/windows/6/plannedMinutes'].sort());
      // Registry-level problems (shape) are 400 with pointers as well.
      assertProblem(
        await replace(taskId, current.version, [{ memberId: member, startsAt: 'soon', endsAt: '2031-07-02T10:00:00Z', plannedMinutes: 0 }]),
        400,
        'validation_failed',
        '/windows/0/startsAt',
      );
      assertProblem(await call('PUT', `/v1/tasks/${taskId}/planned-work`, cell.admin, { windows: [] }), 400, 'validation_failed', '/expectedVersion');
      assert.deepEqual(await rows(taskId), before);
      assert.equal((await schedule(taskId)).version, current.version);
      assert.equal((await cell.outbox(taskId, 'planned_work.replaced')).length, 1);
    });

    it("another workspace's task answers 404 and its planned work is not changed; unknown and archived tasks", async () => {
      assertProblem(await call('GET', `/v1/tasks/${other.taskId}/planned-work`, cell.admin), 404, 'not_found');
      const foreignVersion = 'x';
      assertProblem(await replace(other.taskId, foreignVersion, []), 404, 'not_found');
      assert.equal((await rows(other.taskId)).length, 1);
      assertProblem(await call('GET', `/v1/tasks/${randomUUID()}/planned-work`, cell.admin), 404, 'not_found');
      assertProblem(await call('GET', '/v1/tasks/nope/planned-work', cell.admin), 404, 'not_found');
      const archivedTask = await newTask({ archivedAt: new Date() });
      const { version } = await schedule(archivedTask);
      assertProblem(await replace(archivedTask, version, [win(member, '2031-08-01T09:00:00Z', '2031-08-01T10:00:00Z')]), 409, 'conflict');
      assert.equal((await rows(archivedTask)).length, 0);
    });
  });

  describe('listPlannedWork', () => {
    it('filters by window overlap, member, task and project, pages with cursors, and leaves out archived tasks and other workspaces', async () => {
      const project2 = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'P2' } })).id;
      const a = await newTask();
      const b = await newTask({ projectId: project2 });
      const archived = await newTask();
      const put = async (taskId: string, windows: unknown[]) => assert.equal((await replace(taskId, (await schedule(taskId)).version, windows)).status, 200);
      await put(a, [
        win(member, '2032-01-10T09:00:00Z', '2032-01-10T10:00:00Z'),
        win(second, '2032-01-20T09:00:00Z', '2032-01-20T10:00:00Z'),
        win(member, '2032-03-01T09:00:00Z', '2032-03-01T10:00:00Z'),
      ]);
      await put(b, [win(member, '2032-01-31T23:00:00Z', '2032-02-01T01:00:00Z')]);
      await put(archived, [win(member, '2032-01-15T09:00:00Z', '2032-01-15T10:00:00Z')]);
      await cell.database.prisma.task.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: archived } }, data: { archivedAt: new Date() } });

      const range = 'from=2032-01-01T00:00:00Z&to=2032-02-01T00:00:00Z';
      const all = await listAllPages<Window>(cell.v1, `/v1/planned-work?${range}&limit=1`, cell.admin);
      for (const w of all) assertShape('listPlannedWork', w);
      assert.deepEqual(
        all.map((w) => [w.taskId, w.startsAt]).sort(),
        [
          [a, '2032-01-10T09:00:00.000Z'],
          [a, '2032-01-20T09:00:00.000Z'],
          [b, '2032-01-31T23:00:00.000Z'],
        ].sort(),
      );
      assert.deepEqual(
        all.map((w) => w.id),
        [...all.map((w) => w.id)].sort(),
        'id order',
      );
      const firstPage = await call<ListBody<Window>>('GET', `/v1/planned-work?${range}&limit=2`, cell.admin);
      assert.equal(firstPage.body.data.length, 2);
      assert.ok(firstPage.body.links.next);

      const ids = async (query: string) => (await listAllPages<Window>(cell.v1, `/v1/planned-work?${range}&${query}`, cell.admin)).map((w) => w.startsAt).sort();
      assert.deepEqual(await ids(`memberId=${second}`), ['2032-01-20T09:00:00.000Z']);
      assert.deepEqual(await ids(`taskId=${b}`), ['2032-01-31T23:00:00.000Z']);
      assert.deepEqual(await ids(`projectId=${project2}`), ['2032-01-31T23:00:00.000Z']);
      assert.deepEqual(await ids(`memberId=${member}&taskId=${a}`), ['2032-01-10T09:00:00.000Z']);
      assert.deepEqual(await ids(`taskId=${other.taskId}`), []);
      assert.deepEqual(await ids('memberId=not-a-uuid'), []);
      const foreign = await listAllPages<Window>(cell.v1, '/v1/planned-work?from=2030-12-01T00:00:00Z&to=2031-12-01T00:00:00Z', cell.admin);
      assert.ok(!foreign.some((w) => w.taskId === other.taskId));
    });

    it('refuses missing or invalid filters with 400 naming the parameter', async () => {
      const cases: [string, string][] = [
        ['to=2032-02-01T00:00:00Z', 'from'],
        ['from=2032-01-01T00:00:00Z', 'to'],
        ['from=yesterday&to=2032-02-01T00:00:00Z', 'from'],
        ['from=2032-02-01T00:00:00Z&to=2032-01-01T00:00:00Z', 'to'],
        ['from=2032-01-01T00:00:00Z&to=2033-01-03T00:00:00Z', 'to'],
        ['from=2032-01-01T00:00:00Z&to=2032-02-01T00:00:00Z&limit=0', 'limit'],
        ['from=2032-01-01T00:00:00Z&to=2032-02-01T00:00:00Z&cursor=forged', 'cursor'],
        ['from=2032-01-01T00:00:00Z&to=2032-02-01T00:00:00Z&taskId=a%20b', 'taskId'],
      ];
      for (const [query, parameter] of cases) {
        const reply = await call('GET', `/v1/planned-work?${query}`, cell.admin);
        assert.equal(reply.status, 400, `${query}: ${JSON.stringify(reply.body)}`);
        const params = (reply.body as { errors: { source?: { parameter?: string } }[] }).errors.map((e) => e.source?.parameter);
        assert.ok(params.includes(parameter), `${query}: ${JSON.stringify(reply.body)}`);
      }
    });
  });

  describe('resource grants (through the task)', () => {
    it('a service account reads and lists only planned work of granted tasks; a read grant cannot replace', async () => {
      const granted = await newTask();
      const hidden = await newTask();
      for (const taskId of [granted, hidden]) assert.equal((await replace(taskId, (await schedule(taskId)).version, [win(member, '2033-01-05T09:00:00Z', '2033-01-05T10:00:00Z')])).status, 200);
      const scopes = ['planned-work:read', 'planned-work:write'];
      const reader = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: granted, access: 'read' }]);
      const listed = await listAllPages<Window>(cell.v1, '/v1/planned-work?from=2033-01-01T00:00:00Z&to=2033-02-01T00:00:00Z', reader.token);
      assert.deepEqual(
        listed.map((w) => w.taskId),
        [granted],
      );
      const seen = await schedule(granted, reader.token);
      assertProblem(await call('GET', `/v1/tasks/${hidden}/planned-work`, reader.token), 404, 'not_found');
      assertProblem(await replace(granted, seen.version, [], reader.token), 403, 'insufficient_grant');
      assert.equal((await rows(granted)).length, 1);
      const none = await cell.serviceAccount(scopes, []);
      assert.deepEqual(await listAllPages<Window>(cell.v1, '/v1/planned-work?from=2033-01-01T00:00:00Z&to=2033-02-01T00:00:00Z', none.token), []);
      const writer = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: granted, access: 'write' }]);
      assert.equal((await replace(granted, seen.version, [], writer.token)).status, 200);
      assert.equal((await rows(granted)).length, 0);
    });
  });
});
