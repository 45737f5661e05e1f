import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem } from './support/v1.js';

/**
 * Project sharing enforced (issue 24, docs/sharing.md): a project with access-control entries is visible only to
 * the principals they name (members, members of named groups, service accounts) and to administrators; `viewer`
 * reads, `editor` also writes, `manager` also changes the list; its tasks follow it; the change feed and webhook
 * fan-out show an event only to a credential that could read its aggregate now, and the same holds for resources
 * owned by one credential (exports) and for a service account's grants (task recurrences follow their task).
 */

const env = useTestEnvironment();

type Item = { id: string };
type Data<T> = { data: T };
const MEMBER_SCOPES = [
  'projects:read',
  'projects:write',
  'projects:sharing',
  'tasks:read',
  'tasks:write',
  'time-entries:read',
  'time-entries:write',
  'changes:read',
  'webhooks:read',
  'webhooks:write',
];

describe('who may see what', () => {
  const cell = useV1Cell(env);
  const { call } = cell;

  describe('project sharing, enforced on every path', () => {
    let projectId: string;
    let groupId: string;
    let taskId: string;
    let openTaskId: string;
    const tokens: Record<'outsider' | 'viewer' | 'editor' | 'manager' | 'grouped', string> = { outsider: '', viewer: '', editor: '', manager: '', grouped: '' };
    const ids: Record<keyof typeof tokens, string> = { outsider: '', viewer: '', editor: '', manager: '', grouped: '' };

    const sharing = async () => (await call<Data<{ version: string; entries: unknown[] }>>('GET', `/v1/projects/${projectId}/sharing`, cell.admin)).body.data;
    const share = async (token: string, entries: object[], id = projectId) => {
      const version = (await call<Data<{ version: string }>>('GET', `/v1/projects/${id}/sharing`, cell.admin)).body.data.version;
      return call('PUT', `/v1/projects/${id}/sharing`, token, { expectedVersion: version, entries });
    };
    const etagOf = async (path: string) => (await call('GET', path, cell.admin)).headers.get('etag')!;
    const listIds = async (path: string, token: string) => (await cell.listAll<Item>(path, token)).map((i) => i.id);

    beforeAll(async () => {
      for (const who of Object.keys(tokens) as (keyof typeof tokens)[]) {
        const member = await cell.member(MEMBER_SCOPES);
        ids[who] = member.memberId;
        tokens[who] = await member.mint(MEMBER_SCOPES);
      }
      const group = await cell.database.prisma.group.create({ data: { workspaceId: cell.workspaceId, name: 'Sharing readers' } });
      groupId = group.id;
      await cell.database.prisma.groupMember.create({ data: { workspaceId: cell.workspaceId, groupId: group.id, memberId: ids.grouped } });
      projectId = (await call<Data<Item>>('POST', '/v1/projects', cell.admin, { name: 'Restricted' })).body.data.id;
      taskId = (await call<Data<Item>>('POST', '/v1/tasks', cell.admin, { title: 'Inside', projectId })).body.data.id;
      openTaskId = (await call<Data<Item>>('POST', '/v1/tasks', cell.admin, { title: 'Outside' })).body.data.id;
      const reply = await share(cell.admin, [
        { principalType: 'member', principalId: ids.viewer, access: 'viewer' },
        { principalType: 'member', principalId: ids.editor, access: 'editor' },
        { principalType: 'member', principalId: ids.manager, access: 'manager' },
        { principalType: 'group', principalId: group.id, access: 'viewer' },
      ]);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    });

    it('a member outside the list sees neither the project nor its tasks: get 404, absent from lists; open resources stay visible', async () => {
      assertProblem(await call('GET', `/v1/projects/${projectId}`, tokens.outsider), 404, 'not_found');
      assertProblem(await call('GET', `/v1/tasks/${taskId}`, tokens.outsider), 404, 'not_found');
      assertProblem(await call('GET', `/v1/projects/${projectId}/sharing`, tokens.outsider), 404, 'not_found');
      assert.ok(!(await listIds('/v1/projects', tokens.outsider)).includes(projectId));
      const tasks = await listIds('/v1/tasks', tokens.outsider);
      assert.ok(!tasks.includes(taskId));
      assert.ok(tasks.includes(openTaskId), 'a task of no project is open to the workspace');
      assert.deepEqual(await listIds(`/v1/tasks?projectId=${projectId}`, tokens.outsider), []);
    });

    it('listed members, members of a listed group and administrators read it', async () => {
      for (const token of [tokens.viewer, tokens.editor, tokens.manager, tokens.grouped, cell.admin]) {
        assert.equal((await call('GET', `/v1/projects/${projectId}`, token)).status, 200);
        assert.equal((await call('GET', `/v1/tasks/${taskId}`, token)).status, 200);
        assert.ok((await listIds('/v1/projects', token)).includes(projectId));
        assert.ok((await listIds(`/v1/tasks?projectId=${projectId}`, token)).includes(taskId));
      }
    });

    it('a viewer cannot change the project or its tasks, nor create tasks in it: 403 insufficient_project_access', async () => {
      assertProblem(await call('PATCH', `/v1/projects/${projectId}`, tokens.viewer, { name: 'x' }, { 'if-match': await etagOf(`/v1/projects/${projectId}`) }), 403, 'insufficient_project_access');
      assertProblem(await call('PATCH', `/v1/tasks/${taskId}`, tokens.viewer, { title: 'x' }, { 'if-match': await etagOf(`/v1/tasks/${taskId}`) }), 403, 'insufficient_project_access');
      assertProblem(await call('POST', '/v1/tasks', tokens.viewer, { title: 'x', projectId }), 403, 'insufficient_project_access');
      assertProblem(await call('POST', `/v1/tasks/${taskId}/timer/start`, tokens.viewer, {}), 403, 'insufficient_project_access');
      // Moving an open task into the project changes the project as well.
      assertProblem(await call('POST', `/v1/tasks/${openTaskId}/move`, tokens.viewer, { projectId }, { 'if-match': await etagOf(`/v1/tasks/${openTaskId}`) }), 403, 'insufficient_project_access');
    });

    it('an outsider writing to it meets 404 (the project does not exist for it), and a body naming it is 400 at its pointer', async () => {
      assertProblem(await call('PATCH', `/v1/projects/${projectId}`, tokens.outsider, { name: 'x' }, { 'if-match': await etagOf(`/v1/projects/${projectId}`) }), 404, 'not_found');
      assertProblem(await call('PATCH', `/v1/tasks/${taskId}`, tokens.outsider, { title: 'x' }, { 'if-match': await etagOf(`/v1/tasks/${taskId}`) }), 404, 'not_found');
      assertProblem(await call('POST', '/v1/tasks', tokens.outsider, { title: 'x', projectId }), 400, 'validation_failed', '/projectId');
    });

    it('an editor changes the project and its tasks and creates tasks in it', async () => {
      const project = await call('PATCH', `/v1/projects/${projectId}`, tokens.editor, { description: 'edited' }, { 'if-match': await etagOf(`/v1/projects/${projectId}`) });
      assert.equal(project.status, 200, JSON.stringify(project.body));
      assert.equal((await call('PATCH', `/v1/tasks/${taskId}`, tokens.editor, { title: 'Edited' }, { 'if-match': await etagOf(`/v1/tasks/${taskId}`) })).status, 200);
      assert.equal((await call('POST', '/v1/tasks', tokens.editor, { title: 'By the editor', projectId })).status, 201);
    });

    it('only a manager or an administrator changes the list: an editor gets 403, an outsider holding projects:sharing cannot add itself', async () => {
      const before = await sharing();
      assertProblem(await share(tokens.editor, [{ principalType: 'member', principalId: ids.editor, access: 'manager' }]), 403, 'insufficient_project_access');
      assertProblem(await share(tokens.outsider, [{ principalType: 'member', principalId: ids.outsider, access: 'manager' }]), 404, 'not_found');
      assert.deepEqual(await sharing(), before);
      const entries = [...(before.entries as object[]), { principalType: 'member', principalId: ids.outsider, access: 'viewer' }];
      assert.equal((await share(tokens.manager, entries)).status, 200);
      assert.equal((await call('GET', `/v1/projects/${projectId}`, tokens.outsider)).status, 200, 'the new entry applies on the very next request');
      assert.equal((await share(tokens.manager, before.entries as object[])).status, 200);
      assertProblem(await call('GET', `/v1/projects/${projectId}`, tokens.outsider), 404, 'not_found');
    });

    it('leaving a listed group hides the project on the very next request, on every API instance (it is an authorization change)', async () => {
      for (const app of [cell.v1, cell.v1b]) assert.equal((await call('GET', `/v1/projects/${projectId}`, tokens.grouped, undefined, {}, app)).status, 200);
      const version = (await call<Data<{ version: string }>>('GET', `/v1/groups/${groupId}`, cell.admin)).body.data.version;
      assert.equal((await call('PUT', `/v1/groups/${groupId}/members`, cell.admin, { expectedVersion: version, memberIds: [] })).status, 200);
      for (const app of [cell.v1, cell.v1b]) assertProblem(await call('GET', `/v1/projects/${projectId}`, tokens.grouped, undefined, {}, app), 404, 'not_found');
      const again = (await call<Data<{ version: string }>>('GET', `/v1/groups/${groupId}`, cell.admin)).body.data.version;
      assert.equal((await call('PUT', `/v1/groups/${groupId}/members`, cell.admin, { expectedVersion: again, memberIds: [ids.grouped] })).status, 200);
      assert.equal((await call('GET', `/v1/tasks/${taskId}`, tokens.grouped, undefined, {}, cell.v1b)).status, 200);
    });

    it('the first entries of an open project are an administrator’s to set, so nobody lists themselves', async () => {
      const open = (await call<Data<Item>>('POST', '/v1/projects', cell.admin, { name: 'Open' })).body.data.id;
      assertProblem(await share(tokens.editor, [{ principalType: 'member', principalId: ids.editor, access: 'manager' }], open), 403, 'insufficient_project_access');
      assert.equal((await call('GET', `/v1/projects/${open}`, tokens.outsider)).status, 200, 'without entries a project is open to the workspace');
    });

    it('the change feed shows the project’s and its tasks’ events only to those who can read them', async () => {
      const marker = (await call<Data<Item>>('POST', '/v1/tasks', cell.admin, { title: `Marker ${randomUUID()}`, projectId })).body.data.id;
      const seen = async (token: string) => (await cell.listAll<{ resourceId: string }>('/v1/changes?types=projects,tasks', token)).map((c) => c.resourceId);
      const outsider = await seen(tokens.outsider);
      for (const hidden of [projectId, taskId, marker]) assert.ok(!outsider.includes(hidden), `the outsider's feed shows ${hidden}`);
      assert.ok(outsider.includes(openTaskId));
      const viewer = await seen(tokens.viewer);
      for (const shown of [projectId, taskId, marker, openTaskId]) assert.ok(viewer.includes(shown), `the viewer's feed lacks ${shown}`);
    });

    it('webhook fan-out delivers an event only to an owner who can read its aggregate', async () => {
      const subscribe = async (token: string) => (await call<Data<Item>>('POST', '/v1/webhooks', token, { url: 'https://127.0.0.1:9/hook', eventTypes: ['task.updated'] })).body.data.id;
      const outsiderHook = await subscribe(tokens.outsider);
      const viewerHook = await subscribe(tokens.viewer);
      await call('PATCH', `/v1/tasks/${taskId}`, cell.admin, { title: `Fanned ${randomUUID()}` }, { 'if-match': await etagOf(`/v1/tasks/${taskId}`) });
      const [event] = (await cell.outbox(taskId, 'task.updated')).slice(-1);
      await waitFor('the event published', async () => (await cell.database.prisma.outboxEvent.findFirst({ where: { workspaceId: cell.workspaceId, id: event!.id } }))?.publishedAt != null);
      const deliveries = async (subscriptionId: string) => cell.database.prisma.webhookDelivery.count({ where: { workspaceId: cell.workspaceId, subscriptionId, eventId: event!.id } });
      assert.equal(await deliveries(viewerHook), 1);
      assert.equal(await deliveries(outsiderHook), 0);
    });
  });

  describe('events follow the resource’s own rule: a series its task’s grants, an export its creator', () => {
    it('a service account without a grant on a series’ task learns nothing of the series, in the feed or the event catalog’s terms', async () => {
      const task = (await call<Data<Item>>('POST', '/v1/tasks', cell.admin, { title: 'Template' })).body.data.id;
      const series = await call<Data<Item>>('POST', '/v1/task-recurrences', cell.admin, { templateTaskId: task, rule: { frequency: 'daily' }, startsOn: '2030-01-01', timeZone: 'UTC' });
      assert.equal(series.status, 201, JSON.stringify(series.body));
      const scopes = ['task-recurrences:read', 'tasks:read', 'changes:read'];
      const ungranted = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: randomUUID(), access: 'read' }]);
      const granted = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: task, access: 'read' }]);
      const seen = async (token: string) => (await cell.listAll<{ resourceId: string }>('/v1/changes?types=task-recurrences', token)).map((c) => c.resourceId);
      assertProblem(await call('GET', `/v1/task-recurrences/${series.body.data.id}`, ungranted.token), 404, 'not_found');
      assert.deepEqual(await seen(ungranted.token), []);
      assert.equal((await call('GET', `/v1/task-recurrences/${series.body.data.id}`, granted.token)).status, 200);
      assert.ok((await seen(granted.token)).includes(series.body.data.id));
    });

    it('export events reach only the credential that created the export, as its GET does', async () => {
      const scopes = ['exports:read', 'exports:write', 'changes:read', 'tags:read'];
      const creator = await cell.mint(scopes);
      const other = await cell.mint(scopes);
      const created = await call<Data<Item>>('POST', '/v1/exports', creator, { resourceTypes: ['tags'], format: 'csv' });
      assert.ok([201, 202].includes(created.status), JSON.stringify(created.body));
      const id = created.body.data.id;
      assertProblem(await call('GET', `/v1/exports/${id}`, other), 404, 'not_found');
      const seen = async (token: string) => (await cell.listAll<{ resourceId: string }>('/v1/changes?types=exports', token)).map((c) => c.resourceId);
      assert.ok((await seen(creator)).includes(id));
      assert.ok(!(await seen(other)).includes(id));
    });
  });
});
