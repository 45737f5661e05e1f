import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, type Reply } from './support/v1.js';

/**
 * Project sharing (issue 24) for what belongs to a project: time entries (their own project, else their task's),
 * project statements, planned work (its task's project) and task recurrences (their template task's project). A
 * project with access-control entries hides all of it from members it does not list (404 like a missing resource,
 * absent from lists, a body reference 400 at its pointer); a viewer reads but may not write (403
 * insufficient_project_access); an editor writes; a project without entries is open as before; a service account
 * listed on the project sees what its grants name, one not listed nothing of it.
 */

const env = useTestEnvironment();

const SCOPES = [
  'projects:read',
  'tasks:read',
  'tasks:write',
  'time-entries:read',
  'time-entries:write',
  'time-entries:billing',
  'project-statements:read',
  'project-statements:write',
  'planned-work:read',
  'planned-work:write',
  'task-recurrences:read',
  'task-recurrences:write',
  'task-recurrences:run',
];

type Item = { id: string; version: string };
type Sharing = { version: string };

describe('project sharing: time entries, project statements, planned work, task recurrences', () => {
  const cell = useV1Cell(env);
  const { call, listAll } = cell;
  /** Tokens: members not listed, listed as viewer, listed as editor; service accounts listed (editor) and not listed. */
  const token = { outsider: '', viewer: '', editor: '', listedSa: '', unlistedSa: '' };
  /** The shared project (entries) and the open one (none), a task in each. */
  const shared = { projectId: '', taskId: '' };
  const open = { projectId: '', taskId: '' };
  let seq = 0;

  /** The reply has this status: its data. */
  const ok = <T = unknown>(reply: Reply, status: number): T => {
    assert.equal(reply.status, status, JSON.stringify(reply.body));
    return (reply.body as { data: T }).data;
  };
  const ids = (items: readonly { id: string }[]) => new Set(items.map((i) => i.id));
  const newTask = async (projectId: string) => (await cell.database.prisma.task.create({ data: { workspaceId: cell.workspaceId, title: `Shared-family task ${++seq}`, projectId } })).id;

  beforeAll(async () => {
    const outsider = await cell.member(SCOPES);
    const viewer = await cell.member(SCOPES);
    const editor = await cell.member(SCOPES);
    token.outsider = await outsider.mint(SCOPES);
    token.viewer = await viewer.mint(SCOPES);
    token.editor = await editor.mint(SCOPES);
    const grants = (['time_entry', 'project_statement', 'task'] as const).map((resourceType) => ({ resourceType, resourceId: null, access: 'write' as const }));
    const listedSa = await cell.serviceAccount(SCOPES, grants);
    token.listedSa = listedSa.token;
    token.unlistedSa = (await cell.serviceAccount(SCOPES, grants)).token;

    shared.projectId = ok<Item>(await call('POST', '/v1/projects', cell.admin, { name: 'Shared families project' }), 201).id;
    open.projectId = ok<Item>(await call('POST', '/v1/projects', cell.admin, { name: 'Open families project' }), 201).id;
    shared.taskId = await newTask(shared.projectId);
    open.taskId = await newTask(open.projectId);
    const sharing = ok<Sharing>(await call('GET', `/v1/projects/${shared.projectId}/sharing`, cell.admin), 200);
    const entries = [
      { principalType: 'member', principalId: viewer.memberId, access: 'viewer' },
      { principalType: 'member', principalId: editor.memberId, access: 'editor' },
      { principalType: 'service-account', principalId: listedSa.serviceAccountId, access: 'editor' },
    ];
    ok(await call('PUT', `/v1/projects/${shared.projectId}/sharing`, cell.admin, { expectedVersion: sharing.version, entries }), 200);
  });

  describe('time entries', () => {
    const PATH = '/v1/time-entries';
    const entry = { shared: '', taskOnly: '', open: '' };
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    const body = (extra: Record<string, unknown>) => ({ startedAt: hoursAgo(72 + ++seq), durationSeconds: 600, note: `shared-family entry ${seq}`, ...extra });
    const create = async (extra: Record<string, unknown>, as = cell.admin) => ok<Item>(await call('POST', PATH, as, body(extra)), 201);
    const current = async (id: string) => ok<Item>(await call('GET', `${PATH}/${id}`, cell.admin), 200);

    beforeAll(async () => {
      entry.shared = (await create({ projectId: shared.projectId })).id;
      entry.open = (await create({ projectId: open.projectId })).id;
      // An entry with a task but no project of its own follows its task's project.
      const start = new Date(Date.now() - 100 * 3_600_000);
      entry.taskOnly = (
        await cell.database.prisma.timeEntry.create({
          data: { workspaceId: cell.workspaceId, memberId: cell.ownerMemberId, taskId: shared.taskId, startedAt: start, stoppedAt: new Date(start.getTime() + 60_000), durationSeconds: 60 },
        })
      ).id;
    });

    it('hides the entries of a shared project (its own or its task’s) from a member it does not list: 404 on every path, absent from the list', async () => {
      for (const id of [entry.shared, entry.taskOnly]) {
        assertProblem(await call('GET', `${PATH}/${id}`, token.outsider), 404, 'not_found');
        assertProblem(await call('GET', `${PATH}/${id}/billing`, token.outsider), 404, 'not_found');
        const version = (await current(id)).version;
        assertProblem(await call('PATCH', `${PATH}/${id}`, token.outsider, { expectedVersion: version, note: 'no' }), 404, 'not_found');
        assertProblem(await call('PUT', `${PATH}/${id}/billing`, token.outsider, { expectedVersion: version, billable: true, billingRate: null }), 404, 'not_found');
        assertProblem(await call('DELETE', `${PATH}/${id}`, token.outsider), 404, 'not_found');
        assertProblem(await call('POST', `${PATH}/${id}/restore`, token.outsider), 404, 'not_found');
      }
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.outsider));
      assert.ok(!listed.has(entry.shared) && !listed.has(entry.taskOnly), 'hidden entries are not listed');
      assert.ok(listed.has(entry.open), 'an open project’s entry is listed');
      assert.equal((await listAll<Item>(`${PATH}?projectId=${shared.projectId}`, token.outsider)).length, 0);
    });

    it('a reference to a hidden project or task is 400 at its pointer, on create and on update', async () => {
      assertProblem(await call('POST', PATH, token.outsider, body({ projectId: shared.projectId })), 400, 'validation_failed', '/projectId');
      assertProblem(await call('POST', PATH, token.outsider, body({ taskId: shared.taskId })), 400, 'validation_failed', '/taskId');
      const mine = await create({ projectId: open.projectId }, token.outsider);
      assertProblem(await call('PATCH', `${PATH}/${mine.id}`, token.outsider, { expectedVersion: mine.version, projectId: shared.projectId }), 400, 'validation_failed', '/projectId');
      assertProblem(await call('PATCH', `${PATH}/${mine.id}`, token.outsider, { expectedVersion: mine.version, taskId: shared.taskId, projectId: null }), 400, 'validation_failed', '/taskId');
      assert.equal((await current(mine.id)).version, mine.version, 'nothing changed');
    });

    it('a viewer reads them but every write is 403 insufficient_project_access, moving one of its own entries into the project too', async () => {
      for (const id of [entry.shared, entry.taskOnly]) {
        ok(await call('GET', `${PATH}/${id}`, token.viewer), 200);
        ok(await call('GET', `${PATH}/${id}/billing`, token.viewer), 200);
        const version = (await current(id)).version;
        assertProblem(await call('PATCH', `${PATH}/${id}`, token.viewer, { expectedVersion: version, note: 'no' }), 403, 'insufficient_project_access');
        assertProblem(await call('PUT', `${PATH}/${id}/billing`, token.viewer, { expectedVersion: version, billable: true, billingRate: null }), 403, 'insufficient_project_access');
        assertProblem(await call('DELETE', `${PATH}/${id}`, token.viewer), 403, 'insufficient_project_access');
        assertProblem(await call('POST', `${PATH}/${id}/restore`, token.viewer), 403, 'insufficient_project_access');
      }
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.viewer));
      assert.ok(listed.has(entry.shared) && listed.has(entry.taskOnly));
      assertProblem(await call('POST', PATH, token.viewer, body({ projectId: shared.projectId })), 403, 'insufficient_project_access');
      assertProblem(await call('POST', PATH, token.viewer, body({ taskId: shared.taskId })), 403, 'insufficient_project_access');
      const mine = await create({ projectId: open.projectId }, token.viewer);
      assertProblem(await call('PATCH', `${PATH}/${mine.id}`, token.viewer, { expectedVersion: mine.version, projectId: shared.projectId }), 403, 'insufficient_project_access');
    });

    it('an editor creates, changes, bills, archives and restores them', async () => {
      const made = await create({ taskId: shared.taskId }, token.editor);
      const updated = ok<Item>(await call('PATCH', `${PATH}/${made.id}`, token.editor, { expectedVersion: made.version, note: 'edited' }), 200);
      ok(await call('PUT', `${PATH}/${made.id}/billing`, token.editor, { expectedVersion: updated.version, billable: true, billingRate: { amount: '80', currency: 'EUR' } }), 200);
      const other = await current(entry.taskOnly);
      ok(await call('PATCH', `${PATH}/${entry.taskOnly}`, token.editor, { expectedVersion: other.version, note: 'edited by the editor' }), 200);
      assert.equal((await call('DELETE', `${PATH}/${made.id}`, token.editor)).status, 204);
      ok(await call('POST', `${PATH}/${made.id}/restore`, token.editor), 200);
    });

    it('an open project’s entries behave as before for everyone', async () => {
      ok(await call('GET', `${PATH}/${entry.open}`, token.outsider), 200);
      const made = await create({ projectId: open.projectId, taskId: open.taskId }, token.outsider);
      ok(await call('PATCH', `${PATH}/${made.id}`, token.outsider, { expectedVersion: made.version, note: 'open' }), 200);
      assert.equal((await call('DELETE', `${PATH}/${made.id}`, token.outsider)).status, 204);
    });

    it('a service account listed on the project works with its grants; one not listed gets 404 and an empty list there', async () => {
      ok(await call('GET', `${PATH}/${entry.shared}`, token.listedSa), 200);
      const version = (await current(entry.shared)).version;
      ok(await call('PATCH', `${PATH}/${entry.shared}`, token.listedSa, { expectedVersion: version, note: 'by the listed account' }), 200);
      assert.ok(ids(await listAll<Item>(`${PATH}?limit=200`, token.listedSa)).has(entry.shared));
      assertProblem(await call('GET', `${PATH}/${entry.shared}`, token.unlistedSa), 404, 'not_found');
      assertProblem(await call('GET', `${PATH}/${entry.taskOnly}`, token.unlistedSa), 404, 'not_found');
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.unlistedSa));
      assert.ok(!listed.has(entry.shared) && !listed.has(entry.taskOnly) && listed.has(entry.open));
    });
  });

  describe('project statements', () => {
    const PATH = '/v1/project-statements';
    const statement = { shared: '', open: '' };
    const body = (projectId: string) => ({
      projectId,
      kind: 'expense',
      occurredOn: '2026-03-01',
      description: `Shared-family statement ${++seq}`,
      quantity: '1',
      unitPrice: { amount: '10', currency: 'EUR' },
    });
    const create = async (projectId: string, as = cell.admin) => ok<Item>(await call('POST', PATH, as, body(projectId)), 201);
    const current = async (id: string) => ok<Item>(await call('GET', `${PATH}/${id}`, cell.admin), 200);

    beforeAll(async () => {
      statement.shared = (await create(shared.projectId)).id;
      statement.open = (await create(open.projectId)).id;
    });

    it('hides a shared project’s statements from a member it does not list: 404 on every path, absent from the list, 400 /projectId on create', async () => {
      const id = statement.shared;
      assertProblem(await call('GET', `${PATH}/${id}`, token.outsider), 404, 'not_found');
      assertProblem(await call('PATCH', `${PATH}/${id}`, token.outsider, { expectedVersion: (await current(id)).version, description: 'no' }), 404, 'not_found');
      assertProblem(await call('DELETE', `${PATH}/${id}`, token.outsider), 404, 'not_found');
      assertProblem(await call('POST', `${PATH}/${id}/restore`, token.outsider), 404, 'not_found');
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.outsider));
      assert.ok(!listed.has(id) && listed.has(statement.open));
      assertProblem(await call('POST', PATH, token.outsider, body(shared.projectId)), 400, 'validation_failed', '/projectId');
    });

    it('a viewer reads them but may not create, change, archive or restore one (403 insufficient_project_access)', async () => {
      const id = statement.shared;
      ok(await call('GET', `${PATH}/${id}`, token.viewer), 200);
      assert.ok(ids(await listAll<Item>(`${PATH}?projectId=${shared.projectId}`, token.viewer)).has(id));
      assertProblem(await call('PATCH', `${PATH}/${id}`, token.viewer, { expectedVersion: (await current(id)).version, description: 'no' }), 403, 'insufficient_project_access');
      assertProblem(await call('DELETE', `${PATH}/${id}`, token.viewer), 403, 'insufficient_project_access');
      assertProblem(await call('POST', `${PATH}/${id}/restore`, token.viewer), 403, 'insufficient_project_access');
      assertProblem(await call('POST', PATH, token.viewer, body(shared.projectId)), 403, 'insufficient_project_access');
    });

    it('an editor creates, changes, archives and restores them; an open project’s behave as before', async () => {
      const made = await create(shared.projectId, token.editor);
      ok(await call('PATCH', `${PATH}/${made.id}`, token.editor, { expectedVersion: made.version, description: 'edited' }), 200);
      assert.equal((await call('DELETE', `${PATH}/${made.id}`, token.editor)).status, 204);
      ok(await call('POST', `${PATH}/${made.id}/restore`, token.editor), 200);
      const mine = await create(open.projectId, token.outsider);
      ok(await call('GET', `${PATH}/${statement.open}`, token.outsider), 200);
      ok(await call('PATCH', `${PATH}/${mine.id}`, token.outsider, { expectedVersion: mine.version, description: 'open' }), 200);
    });

    it('a service account listed on the project works with its grants; one not listed gets 404 and does not list it', async () => {
      ok(await call('GET', `${PATH}/${statement.shared}`, token.listedSa), 200);
      ok(await call('PATCH', `${PATH}/${statement.shared}`, token.listedSa, { expectedVersion: (await current(statement.shared)).version, description: 'by the listed account' }), 200);
      assertProblem(await call('GET', `${PATH}/${statement.shared}`, token.unlistedSa), 404, 'not_found');
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.unlistedSa));
      assert.ok(!listed.has(statement.shared) && listed.has(statement.open));
    });
  });

  describe('planned work', () => {
    const from = '2031-03-01T00:00:00Z';
    const to = '2031-03-02T00:00:00Z';
    const LIST = `/v1/planned-work?from=${from}&to=${to}&limit=200`;
    const schedulePath = (taskId: string) => `/v1/tasks/${taskId}/planned-work`;
    const windows = (hour: number) => [
      { memberId: cell.ownerMemberId, startsAt: `2031-03-01T${String(hour).padStart(2, '0')}:00:00Z`, endsAt: `2031-03-01T${String(hour + 1).padStart(2, '0')}:00:00Z`, plannedMinutes: 30 },
    ];
    const version = async (taskId: string) => ok<Item>(await call('GET', schedulePath(taskId), cell.admin), 200).version;
    const replace = async (taskId: string, as: string, hour: number) => call('PUT', schedulePath(taskId), as, { expectedVersion: await version(taskId), windows: windows(hour) });
    const taskIdsOf = async (as: string) => new Set((await listAll<{ taskId: string }>(LIST, as)).map((w) => w.taskId));

    beforeAll(async () => {
      ok(await replace(shared.taskId, cell.admin, 9), 200);
      ok(await replace(open.taskId, cell.admin, 10), 200);
    });

    it('hides a shared project’s tasks’ schedules from a member it does not list: 404 to read or replace, absent from the list', async () => {
      assertProblem(await call('GET', schedulePath(shared.taskId), token.outsider), 404, 'not_found');
      assertProblem(await replace(shared.taskId, token.outsider, 11), 404, 'not_found');
      const listed = await taskIdsOf(token.outsider);
      assert.ok(!listed.has(shared.taskId) && listed.has(open.taskId));
    });

    it('a viewer reads the schedule and lists it but may not replace it; an editor may; an open project’s task is open to all', async () => {
      ok(await call('GET', schedulePath(shared.taskId), token.viewer), 200);
      assert.ok((await taskIdsOf(token.viewer)).has(shared.taskId));
      assertProblem(await replace(shared.taskId, token.viewer, 11), 403, 'insufficient_project_access');
      ok(await replace(shared.taskId, token.editor, 12), 200);
      ok(await replace(open.taskId, token.outsider, 13), 200);
    });

    it('a service account listed on the project works with its task grants; one not listed gets 404 and does not list it', async () => {
      ok(await call('GET', schedulePath(shared.taskId), token.listedSa), 200);
      ok(await replace(shared.taskId, token.listedSa, 14), 200);
      assertProblem(await call('GET', schedulePath(shared.taskId), token.unlistedSa), 404, 'not_found');
      const listed = await taskIdsOf(token.unlistedSa);
      assert.ok(!listed.has(shared.taskId) && listed.has(open.taskId));
    });
  });

  describe('task recurrences', () => {
    const PATH = '/v1/task-recurrences';
    const series = { shared: '', external: '', open: '' };
    const create = async (templateTaskId: string, rule: Record<string, unknown> = { frequency: 'daily' }, as = cell.admin) =>
      ok<Item>(await call('POST', PATH, as, { templateTaskId, rule, startsOn: '2030-01-01', timeZone: 'UTC' }), 201);
    const current = async (id: string) => ok<Item>(await call('GET', `${PATH}/${id}`, cell.admin), 200);
    const event = () => ({ externalEventId: `shared-family-${++seq}`, eventType: 'invoice.paid', occurredAt: '2026-11-02T10:30:00Z' });

    beforeAll(async () => {
      series.shared = (await create(shared.taskId)).id;
      series.external = (await create(shared.taskId, { frequency: 'external' })).id;
      series.open = (await create(open.taskId)).id;
    });

    it('hides the series of a shared project’s task from a member it does not list: 404 on every path, absent from the list, 400 on create', async () => {
      const id = series.shared;
      assertProblem(await call('GET', `${PATH}/${id}`, token.outsider), 404, 'not_found');
      assertProblem(await call('GET', `${PATH}/${id}/occurrences`, token.outsider), 404, 'not_found');
      assertProblem(await call('POST', `${PATH}/${id}/preview`, token.outsider, {}), 404, 'not_found');
      assertProblem(await call('PATCH', `${PATH}/${id}`, token.outsider, { expectedVersion: (await current(id)).version, timeZone: 'Europe/Berlin' }), 404, 'not_found');
      assertProblem(await call('POST', `${PATH}/${id}/recheck`, token.outsider), 404, 'not_found');
      assertProblem(await call('POST', `${PATH}/${series.external}/events`, token.outsider, event()), 404, 'not_found');
      assertProblem(await call('DELETE', `${PATH}/${id}`, token.outsider), 404, 'not_found');
      assertProblem(await call('POST', `${PATH}/${id}/restore`, token.outsider), 404, 'not_found');
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.outsider));
      assert.ok(!listed.has(id) && !listed.has(series.external) && listed.has(series.open));
      assertProblem(
        await call('POST', PATH, token.outsider, { templateTaskId: shared.taskId, rule: { frequency: 'daily' }, startsOn: '2030-01-01', timeZone: 'UTC' }),
        400,
        'validation_failed',
        '/templateTaskId',
      );
    });

    it('a viewer reads, lists and previews them but may not create, change, recheck, send events to, archive or restore one', async () => {
      const id = series.shared;
      ok(await call('GET', `${PATH}/${id}`, token.viewer), 200);
      assert.equal((await call('GET', `${PATH}/${id}/occurrences`, token.viewer)).status, 200);
      ok(await call('POST', `${PATH}/${id}/preview`, token.viewer, {}), 200);
      assert.ok(ids(await listAll<Item>(`${PATH}?limit=200`, token.viewer)).has(id));
      const denied = 'insufficient_project_access';
      assertProblem(await call('POST', PATH, token.viewer, { templateTaskId: shared.taskId, rule: { frequency: 'daily' }, startsOn: '2030-01-01', timeZone: 'UTC' }), 403, denied);
      assertProblem(await call('PATCH', `${PATH}/${id}`, token.viewer, { expectedVersion: (await current(id)).version, timeZone: 'Europe/Berlin' }), 403, denied);
      assertProblem(await call('POST', `${PATH}/${id}/recheck`, token.viewer), 403, denied);
      assertProblem(await call('POST', `${PATH}/${series.external}/events`, token.viewer, event()), 403, denied);
      assertProblem(await call('DELETE', `${PATH}/${id}`, token.viewer), 403, denied);
      assertProblem(await call('POST', `${PATH}/${id}/restore`, token.viewer), 403, denied);
    });

    it('an editor creates, changes, rechecks, sends events to, archives and restores them; an open project’s series are open to all', async () => {
      const made = await create(shared.taskId, { frequency: 'daily' }, token.editor);
      ok(await call('PATCH', `${PATH}/${made.id}`, token.editor, { expectedVersion: made.version, timeZone: 'Europe/Berlin' }), 200);
      ok(await call('POST', `${PATH}/${made.id}/recheck`, token.editor), 202);
      ok(await call('POST', `${PATH}/${series.external}/events`, token.editor, event()), 202);
      assert.equal((await call('DELETE', `${PATH}/${made.id}`, token.editor)).status, 204);
      ok(await call('POST', `${PATH}/${made.id}/restore`, token.editor), 200);
      const mine = await create(open.taskId, { frequency: 'daily' }, token.outsider);
      ok(await call('GET', `${PATH}/${series.open}`, token.outsider), 200);
      ok(await call('PATCH', `${PATH}/${mine.id}`, token.outsider, { expectedVersion: mine.version, timeZone: 'Europe/Berlin' }), 200);
    });

    it('a service account listed on the project works with its task grants; one not listed gets 404 and does not list it', async () => {
      ok(await call('GET', `${PATH}/${series.shared}`, token.listedSa), 200);
      ok(await call('PATCH', `${PATH}/${series.shared}`, token.listedSa, { expectedVersion: (await current(series.shared)).version, timeZone: 'Europe/Paris' }), 200);
      assertProblem(await call('GET', `${PATH}/${series.shared}`, token.unlistedSa), 404, 'not_found');
      const listed = ids(await listAll<Item>(`${PATH}?limit=200`, token.unlistedSa));
      assert.ok(!listed.has(series.shared) && listed.has(series.open));
    });
  });
});
