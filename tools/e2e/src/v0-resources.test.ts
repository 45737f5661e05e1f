import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { v0Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { assertDeprecated as assertV0Deprecated, callV0, legacyErrorOf, type LegacyReply as Reply, useV0Cell, V0_DEPRECATION } from './support/v0.js';

/**
 * v0 operations served over the v1 domain procedures (issue 5), end to end against api-v0 and api-v1 with the
 * auth service and the worker in-process, on real PostgreSQL and Redis: unavailable operations, deprecation
 * headers, tasks (CRUD, body aliases, timers), paging, and the token's team on every write.
 */

const env = useTestEnvironment();

type LegacyTask = { _id: string; title: string; description: string | null; priority: string; archivedAt: string | null; revision: string; timerStartedAt: string | null };

describe('v0 resources over the v1 procedures', () => {
  const cell = useV0Cell(env, { v1: true });
  const { teamToken } = cell;
  let pat: string;
  const other = { workspaceId: '', taskId: '', token: '', projectId: '', contactId: '', groupId: '', callNoteId: '' };
  let seq = 0;

  const call = callV0;
  const legacyError = legacyErrorOf;
  const taskRow = (id: string, ws = cell.workspaceId) => cell.database.prisma.task.findUnique({ where: { workspaceId_id: { workspaceId: ws, id } } });
  const createTask = async (token: string, body: Record<string, unknown> = {}) => {
    const reply = await call<LegacyTask>(cell.v0, 'POST', '/tasks', token, { title: `Task ${++seq}`, ...body });
    assert.equal(reply.status, 201, reply.text);
    return reply.body;
  };
  const assertDeprecated = (reply: Reply, v1Path: string) => assertV0Deprecated(reply, cell.config, v1Path);
  /** Body fields that try to move a write to another team. */
  const foreignTeam = () => ({ team: other.workspaceId, teamId: other.workspaceId, workspaceId: other.workspaceId, _team: other.workspaceId, workspace: other.workspaceId });

  beforeAll(async () => {
    pat = await cell.mint(V1_SCOPES);
    other.workspaceId = await cell.otherWorkspace();
    other.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign task' } })).id;
    other.token = await teamToken(null, other.workspaceId);
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign project' } })).id;
    other.contactId = (await cell.database.prisma.contact.create({ data: { workspaceId: other.workspaceId, displayName: 'Foreign Co', kind: 'organization' } })).id;
    other.groupId = (await cell.database.prisma.contactGroup.create({ data: { workspaceId: other.workspaceId, name: 'Foreign group' } })).id;
    other.callNoteId = (await cell.database.prisma.callNote.create({ data: { workspaceId: other.workspaceId, contactId: other.contactId, content: 'Foreign note' } })).id;
  });

  describe('unavailable operations (contract 4.3, migration rule 10)', () => {
    const unavailable = v0Operations.filter((op) => op.availability === 'unavailable');

    it('the registry marks the contact-group, journal-entry and project-template writes and deletes unavailable', () => {
      assert.deepEqual([...new Set(unavailable.map((op) => op.resource))].sort(), ['contactgroups', 'journalEntries', 'projectTemplates']);
      assert.equal(unavailable.length, 15);
    });

    for (const op of unavailable) {
      const path = op.path.replace('{_id}', '0190a0b0-0000-7000-8000-000000000001');
      it(`${op.method} ${op.path}: 401 without a token, then 403 in the legacy shape naming ${op.v1OperationId}, with Deprecation and Link`, async () => {
        const anonymous = await call(cell.v0, op.method, path, undefined, op.body === 'required' ? { name: 'x' } : undefined);
        assert.equal(anonymous.status, 401);
        assert.equal(legacyError(anonymous).code, 'unauthorized');
        const token = await teamToken();
        const groupsBefore = await cell.database.prisma.contactGroup.count();
        for (const body of op.body === 'required' ? [{ name: 'x', ...foreignTeam() }, undefined, '[1]', '"text"'] : [undefined, { _id: '0190a0b0-0000-7000-8000-000000000001' }]) {
          const reply = await call(cell.v0, op.method, path, token, body);
          assert.equal(reply.status, 403, reply.text);
          const error = legacyError(reply);
          assert.equal(error.code, 'forbidden');
          assert.match(error.message, new RegExp(`${op.v1OperationId}`));
          assert.equal(reply.headers.get('deprecation'), V0_DEPRECATION);
          assert.match(reply.headers.get('link') ?? '', new RegExp(`^<${cell.config.baseUrls.v1}/v1/[a-z-]+(/[^>]+)?>; rel="successor-version"$`));
        }
        assert.equal(await cell.database.prisma.contactGroup.count(), groupsBefore, 'nothing written');
      });
    }
  });

  describe('tasks', () => {
    it('POST /tasks creates (201) the task v1 reads with the same id', async () => {
      const token = await teamToken();
      const reply = await call<LegacyTask & Record<string, unknown>>(cell.v0, 'POST', '/tasks', token, {
        title: 'From v0',
        description: 'legacy',
        priority: 'high',
        createdAt: 'ignored',
        unknownField: 1,
      });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.headers.get('deprecation'), null, 'a supported operation is not deprecated');
      const task = reply.body;
      assert.ok(task._id);
      assert.equal(task['id'], undefined);
      assert.deepEqual([task.title, task.description, task.priority], ['From v0', 'legacy', 'high']);
      const read = await call<{ data: { id: string; title: string } }>(cell.v1, 'GET', `/v1/tasks/${task._id}`, pat);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.data.id, task._id);
      assert.equal(read.body.data.title, 'From v0');
    });

    it('POST /tasks refuses a missing, empty, non-JSON or non-object body and invalid attributes with 400, writing nothing', async () => {
      const token = await teamToken();
      const before = await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId } });
      for (const body of [undefined, '', 'not json', '[1,2]', '"text"', '42', '{}', JSON.stringify({ title: '' }), JSON.stringify({ title: 'x', priority: 'sometime' })]) {
        const reply = await call(cell.v0, 'POST', '/tasks', token, body, body === undefined ? {} : { 'content-type': 'application/json' });
        assert.equal(reply.status, 400, `${String(body)} → ${reply.status} ${reply.text}`);
        assert.equal(legacyError(reply).code, 'invalid_request');
      }
      assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('GET /tasks lists legacy tasks paged by page/limit; a task v1 created is there with its id', async () => {
      const token = await teamToken();
      const created = await call<{ data: { id: string } }>(cell.v1, 'POST', '/v1/tasks', pat, { title: 'From v1' });
      assert.equal(created.status, 201);
      for (let i = 0; i < 3; i++) await createTask(token);
      const all = await call<LegacyTask[]>(cell.v0, 'GET', '/tasks?limit=500', token);
      assert.equal(all.status, 200, all.text);
      assert.ok(Array.isArray(all.body));
      assert.ok(all.body.some((t) => t._id === created.body.data.id));
      assert.ok(all.body.every((t) => typeof t._id === 'string' && !('id' in t)));
      const page2 = await call<LegacyTask[]>(cell.v0, 'GET', '/tasks?page=2&limit=2', token);
      assert.deepEqual(
        page2.body.map((t) => t._id),
        all.body.slice(2, 4).map((t) => t._id),
      );
      const beyond = await call<LegacyTask[]>(cell.v0, 'GET', '/tasks?page=1000&limit=500', token);
      assert.deepEqual(beyond.body, []);
    });

    it('GET /tasks and GET /tasks/{_id} validate page and limit (400)', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      for (const path of ['/tasks', `/tasks/${task._id}`]) {
        for (const query of ['page=0', 'page=-1', 'page=x', 'limit=0', 'limit=501', 'limit=1.5']) {
          const reply = await call(cell.v0, 'GET', `${path}?${query}`, token);
          assert.equal(reply.status, 400, `${path}?${query}: ${reply.text}`);
          assert.equal(legacyError(reply).code, 'invalid_request');
        }
      }
    });

    it('GET /tasks/{_id} reads one task; unknown and foreign ids are 404 revealing nothing', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      const reply = await call<LegacyTask>(cell.v0, 'GET', `/tasks/${task._id}`, token);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, task);
      for (const id of [other.taskId, '0190a0b0-0000-7000-8000-000000000001', 'nope']) {
        const missing = await call(cell.v0, 'GET', `/tasks/${id}`, token);
        assert.equal(missing.status, 404);
        assert.equal(legacyError(missing).code, 'not_found');
        assert.ok(!missing.text.includes('Foreign'));
      }
    });

    it('PUT /tasks/{_id} updates only the sent attributes (last writer wins), ignoring unknown fields', async () => {
      const token = await teamToken();
      const task = await createTask(token, { description: 'keep' });
      const reply = await call<LegacyTask>(cell.v0, 'PUT', `/tasks/${task._id}`, token, { title: 'Renamed', revision: '99', createdAt: 'x', whatever: true });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body._id, reply.body.title, reply.body.description, reply.body.revision], [task._id, 'Renamed', 'keep', '2']);
      const again = await call<LegacyTask>(cell.v0, 'PUT', `/tasks/${task._id}`, token, { priority: 'urgent' });
      assert.equal(again.body.revision, '3');
    });

    it('PUT /tasks/{_id} answers 400 for a body without attributes or invalid values and 404 for unknown ids, changing nothing', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      for (const body of [undefined, '[]', '{}', JSON.stringify({ title: '' }), JSON.stringify({ estimateMinutes: -1 })]) {
        const reply = await call(cell.v0, 'PUT', `/tasks/${task._id}`, token, body, { 'content-type': 'application/json' });
        assert.equal(reply.status, 400, `${String(body)}: ${reply.text}`);
        legacyError(reply);
      }
      assert.equal((await taskRow(task._id))?.revision, 1);
      const missing = await call(cell.v0, 'PUT', '/tasks/0190a0b0-0000-7000-8000-000000000001', token, { title: 'x' });
      assert.equal(missing.status, 404);
    });

    it('PUT /tasks (deprecated alias) takes the id from the body _id and carries Deprecation and Link', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      const reply = await call<LegacyTask>(cell.v0, 'PUT', '/tasks', token, { _id: task._id, title: 'Via alias' });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.title, 'Via alias');
      assertDeprecated(reply, `/v1/tasks/${task._id}`);
      const noId = await call(cell.v0, 'PUT', '/tasks', token, { title: 'x' });
      assert.equal(noId.status, 400);
      assert.match(legacyError(noId).message, /_id/);
      assertDeprecated(noId, '/v1/tasks/{id}');
    });

    it('DELETE /tasks/{_id} archives (204): v0 no longer sees it, v1 shows it archived; again is 404', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      const reply = await call(cell.v0, 'DELETE', `/tasks/${task._id}`, token);
      assert.equal(reply.status, 204, reply.text);
      assert.equal(reply.text, '');
      assert.equal((await call(cell.v0, 'GET', `/tasks/${task._id}`, token)).status, 404);
      const v1Read = await call<{ data: { archivedAt: string | null } }>(cell.v1, 'GET', `/v1/tasks/${task._id}`, pat);
      assert.ok(v1Read.body.data.archivedAt);
      const again = await call(cell.v0, 'DELETE', `/tasks/${task._id}`, token);
      assert.equal(again.status, 404);
      legacyError(again);
    });

    it('DELETE /tasks (deprecated alias) archives the body _id with Deprecation and Link; without _id it is 400', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      const reply = await call(cell.v0, 'DELETE', '/tasks', token, { _id: task._id });
      assert.equal(reply.status, 204, reply.text);
      assertDeprecated(reply, `/v1/tasks/${task._id}`);
      assert.ok((await taskRow(task._id))?.archivedAt);
      const noId = await call(cell.v0, 'DELETE', '/tasks', token);
      assert.equal(noId.status, 400);
      legacyError(noId);
      assertDeprecated(noId, '/v1/tasks/{id}');
    });

    it('the token’s team applies on every write: team ids in bodies are ignored and foreign tasks are 404', async () => {
      const token = await teamToken();
      const foreignBefore = await cell.database.prisma.task.count({ where: { workspaceId: other.workspaceId } });
      const created = await call<LegacyTask>(cell.v0, 'POST', '/tasks', token, { title: 'Mine', ...foreignTeam() });
      assert.equal(created.status, 201, created.text);
      assert.ok(await taskRow(created.body._id), 'created in the token’s team');
      assert.ok(!created.text.includes(other.workspaceId));
      const put = await call<LegacyTask>(cell.v0, 'PUT', `/tasks/${created.body._id}`, token, { title: 'Still mine', ...foreignTeam() });
      assert.equal(put.status, 200);
      assert.equal((await taskRow(created.body._id))?.title, 'Still mine');
      const attempts: [string, string, unknown][] = [
        ['PUT', `/tasks/${other.taskId}`, { title: 'Stolen', ...foreignTeam() }],
        ['PUT', '/tasks', { _id: other.taskId, title: 'Stolen', ...foreignTeam() }],
        ['DELETE', `/tasks/${other.taskId}`, undefined],
        ['DELETE', '/tasks', { _id: other.taskId, ...foreignTeam() }],
        ['POST', `/tasks/${other.taskId}/startTracking`, foreignTeam()],
        ['POST', `/tasks/${other.taskId}/stopTracking`, foreignTeam()],
      ];
      for (const [method, path, body] of attempts) {
        const reply = await call(cell.v0, method, path, token, body);
        assert.equal(reply.status, 404, `${method} ${path}: ${reply.text}`);
        assert.ok(!reply.text.includes('Foreign'));
      }
      const foreign = await taskRow(other.taskId, other.workspaceId);
      assert.deepEqual([foreign?.title, foreign?.archivedAt, foreign?.revision], ['Foreign task', null, 1]);
      assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: other.workspaceId } }), foreignBefore);
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: other.workspaceId } }), 0);
    });

    it('startTracking / stopTracking run the token member’s timer; a second start or stop is 400 and changes nothing', async () => {
      const token = await teamToken();
      const task = await createTask(token);
      const running = () => cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId, memberId: cell.ownerMemberId, stoppedAt: null } });
      const entries = () => cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } });
      const start = await call<{ _id: string; taskId: string }>(cell.v0, 'POST', `/tasks/${task._id}/startTracking`, token, {});
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.taskId, task._id);
      assert.ok(start.body._id);
      const [runningBefore, entriesBefore] = [await running(), await entries()];
      const second = await call(cell.v0, 'POST', `/tasks/${task._id}/startTracking`, token, {});
      assert.equal(second.status, 400, second.text);
      assert.equal(legacyError(second).code, 'invalid_request');
      assert.deepEqual([await running(), await entries()], [runningBefore, entriesBefore]);
      const stop = await call<{ _id: string }>(cell.v0, 'POST', `/tasks/${task._id}/stopTracking`, token, {});
      assert.equal(stop.status, 200, stop.text);
      assert.equal(stop.body._id, start.body._id);
      const stoppedAt = (await cell.database.prisma.timeEntry.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: start.body._id } })).stoppedAt;
      const again = await call(cell.v0, 'POST', `/tasks/${task._id}/stopTracking`, token, {});
      assert.equal(again.status, 400, again.text);
      legacyError(again);
      assert.equal((await cell.database.prisma.timeEntry.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: start.body._id } })).stoppedAt?.getTime(), stoppedAt?.getTime());
      assert.equal(await running(), 0);
    });

    it('timers: unknown tasks are 404; a team token minted by no member cannot track time (403)', async () => {
      const token = await teamToken();
      assert.equal((await call(cell.v0, 'POST', '/tasks/0190a0b0-0000-7000-8000-000000000001/startTracking', token, {})).status, 404);
      assert.equal((await call(cell.v0, 'POST', '/tasks/0190a0b0-0000-7000-8000-000000000001/stopTracking', token, {})).status, 404);
      const noBody = await call(cell.v0, 'POST', '/tasks/0190a0b0-0000-7000-8000-000000000001/startTracking', token);
      assert.equal(noBody.status, 400, 'POST bodies are required JSON objects (contract 4.1)');
      legacyError(noBody);
      const task = await createTask(token);
      const memberless = await teamToken(null);
      const reply = await call(cell.v0, 'POST', `/tasks/${task._id}/startTracking`, memberless, {});
      assert.equal(reply.status, 403);
      assert.equal(legacyError(reply).code, 'forbidden');
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId, taskId: task._id } }), 0);
    });

    it('every task operation requires the team token first (401)', async () => {
      for (const op of v0Operations.filter((o) => o.resource === 'tasks')) {
        const reply = await call(cell.v0, op.method, op.path.replace('{_id}', '0190a0b0-0000-7000-8000-000000000001'), undefined, op.body === 'required' ? {} : undefined);
        assert.equal(reply.status, 401, `${op.method} ${op.path}`);
        assert.equal(legacyError(reply).code, 'unauthorized');
      }
    });
  });
  /**
   * The same patterns for the other v0 resources served now: list (page/limit), get, create (201), PUT by path
   * and by the body alias `_id` (deprecated, with headers), call-note deletes; each with its error path.
   */
  describe('projects, contacts, contact groups and call notes', () => {
    type Legacy = { _id: string } & Record<string, unknown>;
    const UNKNOWN = '0190a0b0-0000-7000-8000-000000000001';
    const create = async (token: string, path: string, body: Record<string, unknown>) => {
      const reply = await call<Legacy>(cell.v0, 'POST', path, token, body);
      assert.equal(reply.status, 201, `${path}: ${reply.text}`);
      assert.ok(reply.body._id && !('id' in reply.body));
      return reply.body;
    };

    for (const [path, v1Path, make] of [
      ['/projects', '/v1/projects', (token: string) => create(token, '/projects', { name: `P ${++seq}` })],
      ['/contacts', '/v1/contacts', (token: string) => create(token, '/contacts', { kind: 'person', name: `C ${++seq}` })],
      ['/contactgroups', '/v1/contact-groups', async () => ({ _id: (await cell.database.prisma.contactGroup.create({ data: { workspaceId: cell.workspaceId, name: `G ${++seq}` } })).id })],
      [
        '/callnotes',
        '/v1/call-notes',
        async (token: string) => create(token, '/callnotes', { contactId: (await create(token, '/contacts', { kind: 'person', name: `N ${++seq}` }))._id, content: 'said hello' }),
      ],
    ] as const) {
      it(`GET ${path} and GET ${path}/{_id} read what v1 reads (same ids); page/limit validated; unknown and foreign ids 404`, async () => {
        const token = await teamToken();
        const made = [await make(token), await make(token), await make(token)];
        const first = made[0]!;
        const all = await call<Legacy[]>(cell.v0, 'GET', `${path}?limit=500`, token);
        assert.equal(all.status, 200, all.text);
        for (const m of made) assert.ok(all.body.some((r) => r._id === m._id));
        const page2 = await call<Legacy[]>(cell.v0, 'GET', `${path}?page=2&limit=1`, token);
        assert.deepEqual(
          page2.body.map((r) => r._id),
          [all.body[1]?._id],
        );
        const one = await call<Legacy>(cell.v0, 'GET', `${path}/${first._id}`, token);
        assert.equal(one.status, 200, one.text);
        assert.equal(one.body._id, first._id);
        const v1Read = await call<{ data: { id: string } }>(cell.v1, 'GET', `${v1Path}/${first._id}`, pat);
        assert.equal(v1Read.body.data.id, first._id);
        for (const p of [path, `${path}/${first._id}`]) {
          for (const query of ['page=0', 'limit=0', 'limit=501', 'page=x']) {
            const bad = await call(cell.v0, 'GET', `${p}?${query}`, token);
            assert.equal(bad.status, 400, `${p}?${query}`);
            assert.equal(legacyError(bad).code, 'invalid_request');
          }
        }
        const foreignId = { '/projects': other.projectId, '/contacts': other.contactId, '/contactgroups': other.groupId, '/callnotes': other.callNoteId }[path];
        for (const id of [UNKNOWN, foreignId]) {
          const missing = await call(cell.v0, 'GET', `${path}/${id}`, token);
          assert.equal(missing.status, 404);
          assert.ok(!missing.text.includes('Foreign'));
        }
      });
    }

    it('POST /projects and /contacts refuse invalid bodies (400) writing nothing; team ids in bodies are ignored', async () => {
      const token = await teamToken();
      const counts = async () => [await cell.database.prisma.project.count(), await cell.database.prisma.contact.count()];
      const before = await counts();
      for (const [path, body] of [
        ['/projects', undefined],
        ['/projects', '[]'],
        ['/projects', '{}'],
        ['/projects', JSON.stringify({ name: 'x', dueOn: 'soon' })],
        ['/contacts', undefined],
        ['/contacts', '"x"'],
        ['/contacts', JSON.stringify({ name: 'no kind' })],
        ['/contacts', JSON.stringify({ kind: 'person', name: 'x', email: 'not an email' })],
      ] as const) {
        const reply = await call(cell.v0, 'POST', path, token, body, { 'content-type': 'application/json' });
        assert.equal(reply.status, 400, `${path} ${String(body)}: ${reply.text}`);
        legacyError(reply);
      }
      assert.deepEqual(await counts(), before);
      const project = await create(token, '/projects', { name: 'Mine', ...foreignTeam() });
      const contact = await create(token, '/contacts', { kind: 'organization', name: 'Mine Co', ...foreignTeam() });
      assert.ok(await cell.database.prisma.project.findFirst({ where: { workspaceId: cell.workspaceId, id: project._id } }));
      assert.ok(await cell.database.prisma.contact.findFirst({ where: { workspaceId: cell.workspaceId, id: contact._id } }));
      assert.equal(await cell.database.prisma.project.count({ where: { workspaceId: other.workspaceId } }), 1);
      assert.equal(await cell.database.prisma.contact.count({ where: { workspaceId: other.workspaceId } }), 1);
    });

    for (const [path, v1Path, body, field, value] of [
      ['/projects', '/v1/projects', { name: 'Original' }, 'name', 'Renamed'],
      ['/contacts', '/v1/contacts', { kind: 'person', name: 'Original' }, 'name', 'Renamed'],
    ] as const) {
      it(`PUT ${path}/{_id} and the deprecated PUT ${path} (body _id) update partially; errors are 400/404; foreign rows never change`, async () => {
        const token = await teamToken();
        const made = await create(token, path, body);
        const put = await call<Legacy>(cell.v0, 'PUT', `${path}/${made._id}`, token, { [field]: value, unknown: 1, ...foreignTeam() });
        assert.equal(put.status, 200, put.text);
        assert.equal(put.body[field], value);
        assert.equal(put.headers.get('deprecation'), null);
        const alias = await call<Legacy>(cell.v0, 'PUT', path, token, { _id: made._id, [field]: `${value} again`, ...foreignTeam() });
        assert.equal(alias.status, 200, alias.text);
        assert.equal(alias.body[field], `${value} again`);
        assertDeprecated(alias, `${v1Path}/${made._id}`);
        const v1Read = await call<{ data: Record<string, unknown> }>(cell.v1, 'GET', `${v1Path}/${made._id}`, pat);
        assert.equal(v1Read.body.data[field], `${value} again`);
        for (const bad of [undefined, '[]', JSON.stringify({ [field]: '' })]) {
          const reply = await call(cell.v0, 'PUT', `${path}/${made._id}`, token, bad, { 'content-type': 'application/json' });
          assert.equal(reply.status, 400, `${String(bad)}: ${reply.text}`);
          legacyError(reply);
        }
        const noId = await call(cell.v0, 'PUT', path, token, { [field]: 'x' });
        assert.equal(noId.status, 400);
        assertDeprecated(noId, `${v1Path}/{id}`);
        const foreignId = path === '/projects' ? other.projectId : other.contactId;
        for (const [p, b] of [
          [`${path}/${UNKNOWN}`, { [field]: 'x' }],
          [`${path}/${foreignId}`, { [field]: 'Stolen', ...foreignTeam() }],
          [path, { _id: foreignId, [field]: 'Stolen', ...foreignTeam() }],
        ] as const) {
          const reply = await call(cell.v0, 'PUT', p, token, b);
          assert.equal(reply.status, 404, `${p}: ${reply.text}`);
          assert.ok(!reply.text.includes('Foreign'));
        }
        const foreignRow =
          path === '/projects'
            ? await cell.database.prisma.project.findFirstOrThrow({ where: { id: other.projectId } })
            : await cell.database.prisma.contact.findFirstOrThrow({ where: { id: other.contactId } });
        assert.equal(foreignRow.revision, 1);
      });
    }

    it('POST /callnotes writes as the token’s member; bad bodies and foreign contacts are 400; team ids are ignored', async () => {
      const token = await teamToken();
      const contact = await create(token, '/contacts', { kind: 'person', name: 'Callee' });
      const note = await create(token, '/callnotes', { contactId: contact._id, content: '<b>verbatim</b>', ...foreignTeam() });
      assert.deepEqual([note['contactId'], note['authorId'], note['content']], [contact._id, cell.ownerMemberId, '<b>verbatim</b>']);
      const before = await cell.database.prisma.callNote.count();
      for (const body of [undefined, '[]', '{}', JSON.stringify({ contactId: contact._id }), JSON.stringify({ contactId: other.contactId, content: 'x', ...foreignTeam() })]) {
        const reply = await call(cell.v0, 'POST', '/callnotes', token, body, { 'content-type': 'application/json' });
        assert.equal(reply.status, 400, `${String(body)}: ${reply.text}`);
        legacyError(reply);
      }
      const memberless = await call(cell.v0, 'POST', '/callnotes', await teamToken(null), { contactId: contact._id, content: 'x' });
      assert.equal(memberless.status, 403);
      assert.equal(await cell.database.prisma.callNote.count(), before);
    });

    it('DELETE /callnotes/{_id} and the deprecated DELETE /callnotes (body _id) archive (204); then 404; foreign notes are 404', async () => {
      const token = await teamToken();
      const contact = await create(token, '/contacts', { kind: 'person', name: 'Callee' });
      const [a, b] = [await create(token, '/callnotes', { contactId: contact._id, content: 'a' }), await create(token, '/callnotes', { contactId: contact._id, content: 'b' })];
      const byPath = await call(cell.v0, 'DELETE', `/callnotes/${a._id}`, token);
      assert.equal(byPath.status, 204, byPath.text);
      assert.equal(byPath.headers.get('deprecation'), null);
      const byBody = await call(cell.v0, 'DELETE', '/callnotes', token, { _id: b._id, ...foreignTeam() });
      assert.equal(byBody.status, 204, byBody.text);
      assertDeprecated(byBody, `/v1/call-notes/${b._id}`);
      for (const id of [a._id, b._id]) {
        assert.ok((await cell.database.prisma.callNote.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } })).archivedAt, 'archived, not deleted');
        assert.equal((await call(cell.v0, 'GET', `/callnotes/${id}`, token)).status, 404);
        assert.equal((await call(cell.v0, 'DELETE', `/callnotes/${id}`, token)).status, 404);
      }
      const noId = await call(cell.v0, 'DELETE', '/callnotes', token);
      assert.equal(noId.status, 400);
      legacyError(noId);
      for (const [p, body] of [
        [`/callnotes/${other.callNoteId}`, undefined],
        ['/callnotes', { _id: other.callNoteId, ...foreignTeam() }],
      ] as const) {
        const reply = await call(cell.v0, 'DELETE', p, token, body);
        assert.equal(reply.status, 404, reply.text);
      }
      assert.equal((await cell.database.prisma.callNote.findFirstOrThrow({ where: { id: other.callNoteId } })).archivedAt, null);
    });

    it('every operation here requires the team token first (401)', async () => {
      for (const op of v0Operations.filter((o) => ['projects', 'contacts', 'contactgroups', 'callnotes'].includes(o.resource))) {
        const reply = await call(cell.v0, op.method, op.path.replace('{_id}', UNKNOWN), undefined, op.body === 'required' ? {} : undefined);
        assert.equal(reply.status, 401, `${op.method} ${op.path}`);
        legacyError(reply);
      }
    });
  });
});
