import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 project templates end to end: scopes (instantiation needs projects:write too), tenancy, validation with
 * JSON pointers, If-Match on update/archive/restore (428 / 400 / 412, one winner of concurrent writers),
 * archive/restore and list exclusion, pagination, outbox events, idempotent create and instantiate, the
 * one-transaction instantiation (project plus skeleton tasks) and resource grants.
 */

const env = useTestEnvironment();

type Blueprint = { title: string; description?: string | null; offsetDays: number; durationDays?: number };
type Template = { id: string; archivedAt: string | null; name: string; description: string | null; taskBlueprints: Blueprint[]; revision: string };
type Project = { id: string; name: string; customerId: string | null; startsOn: string | null; revision: string };

describe('v1 project templates', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  const other = { workspaceId: '', templateId: '', contactId: '' };
  let seq = 0;

  const ifMatch = (revision: string | number) => ({ 'if-match': `"${revision}"` });
  const create = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Template }>('POST', '/v1/project-templates', token, { name: `Template ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const row = (id: string, ws = cell.workspaceId) => cell.database.prisma.projectTemplate.findUnique({ where: { workspaceId_id: { workspaceId: ws, id } } });

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.templateId = (await cell.database.prisma.projectTemplate.create({ data: { workspaceId: other.workspaceId, name: 'Foreign template' } })).id;
    other.contactId = (await cell.database.prisma.contact.create({ data: { workspaceId: other.workspaceId, displayName: 'Foreign Co', kind: 'organization' } })).id;
  });

  describe('scopes', () => {
    it('every operation answers 403 insufficient_scope naming its missing scope', async () => {
      const id = randomUUID();
      const operations: [string, string, string][] = [
        ['GET', '/v1/project-templates', 'project-templates:read'],
        ['POST', '/v1/project-templates', 'project-templates:write'],
        ['GET', `/v1/project-templates/${id}`, 'project-templates:read'],
        ['PATCH', `/v1/project-templates/${id}`, 'project-templates:write'],
        ['DELETE', `/v1/project-templates/${id}`, 'project-templates:write'],
        ['POST', `/v1/project-templates/${id}/restore`, 'project-templates:write'],
        ['POST', `/v1/project-templates/${id}/instantiate`, 'project-templates:read'],
      ];
      const token = await cell.mint(V1_SCOPES.filter((s) => !s.startsWith('project-templates:')));
      for (const [method, path, scope] of operations) {
        const reply = await call(method, path, token, method === 'POST' && !path.endsWith('/restore') ? {} : method === 'PATCH' ? {} : undefined, ifMatch(1));
        assert.equal(reply.status, 403, `${method} ${path}`);
        assert.equal(errorOf(reply).code, 'insufficient_scope');
        assert.match(errorOf(reply).detail, new RegExp(scope), `${method} ${path} names ${scope}`);
      }
    });

    it('instantiation also needs projects:write (403 naming it, nothing created)', async () => {
      const t = await create();
      const token = await cell.mint(V1_SCOPES.filter((s) => s !== 'projects:write'));
      const before = await cell.database.prisma.project.count({ where: { workspaceId: cell.workspaceId } });
      const reply = await call('POST', `/v1/project-templates/${t.id}/instantiate`, token, { name: 'P', startsOn: '2026-01-05' });
      assertProblem(reply, 403, 'insufficient_scope');
      assert.match(errorOf(reply).detail, /projects:write/);
      assert.equal(await cell.database.prisma.project.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('project-templates:read reads but does not write', async () => {
      const t = await create();
      const reader = await cell.mint(['project-templates:read']);
      assert.equal((await call('GET', `/v1/project-templates/${t.id}`, reader)).status, 200);
      assertProblem(await call('PATCH', `/v1/project-templates/${t.id}`, reader, { name: 'x' }, ifMatch(1)), 403, 'insufficient_scope');
    });
  });

  describe('create, get, list', () => {
    it('creates: 201, Location, strong ETag, registry shape, the skeleton and project_template.created', async () => {
      const blueprints = [
        { title: 'Kick-off', offsetDays: 0, durationDays: 1 },
        { title: 'Review', description: 'check', offsetDays: 7 },
      ];
      const reply = await call<{ data: Template }>('POST', '/v1/project-templates', cell.admin, { name: 'Website', description: 'std', taskBlueprints: blueprints });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const t = reply.body.data;
      assertShape('createProjectTemplate', t);
      assert.equal(reply.headers.get('location'), `/v1/project-templates/${t.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.equal(t.revision, '1');
      assert.deepEqual(t.taskBlueprints, [
        { title: 'Kick-off', description: null, offsetDays: 0, durationDays: 1 },
        { title: 'Review', description: 'check', offsetDays: 7 },
      ]);
      const got = await call<{ data: Template }>('GET', `/v1/project-templates/${t.id}`, cell.admin);
      assert.equal(got.status, 200);
      assertShape('getProjectTemplate', got.body.data);
      assert.deepEqual(got.body.data, t);
      assert.equal(got.headers.get('etag'), '"1"');
      assert.deepEqual(
        (await cell.outbox(t.id)).map((e) => [e.eventType, e.aggregateType]),
        [['project_template.created', 'project_template']],
      );
    });

    it('refuses invalid bodies with 400 and a pointer per problem, writing nothing', async () => {
      const before = await cell.database.prisma.projectTemplate.count();
      const cases: [unknown, string][] = [
        [{}, '/name'],
        [{ name: '' }, '/name'],
        [{ name: 'x', extra: 1 }, ''],
        [{ name: 'x', taskBlueprints: [{ title: 'a', offsetDays: -1 }] }, '/taskBlueprints/0/offsetDays'],
        [{ name: 'x', taskBlueprints: [{ offsetDays: 1 }] }, '/taskBlueprints/0/title'],
      ];
      for (const [body, pointer] of cases) {
        const reply = await call('POST', '/v1/project-templates', cell.admin, body);
        assert.equal(reply.status, 400, JSON.stringify(body));
        if (pointer) assertProblem(reply, 400, errorOf(reply).code, pointer);
      }
      assert.equal(await cell.database.prisma.projectTemplate.count(), before);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = randomUUID();
      const body = { name: `Idem ${++seq}` };
      const first = await call<{ data: Template }>('POST', '/v1/project-templates', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Template }>('POST', '/v1/project-templates', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.projectTemplate.count({ where: { name: body.name } }), 1);
      assertProblem(await call('POST', '/v1/project-templates', cell.admin, { name: 'Other' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('pages the list with cursors, leaving archived templates out', async () => {
      const made = [await create(), await create(), await create()];
      const archived = await create();
      assert.equal((await call('DELETE', `/v1/project-templates/${archived.id}`, cell.admin, undefined, ifMatch(1))).status, 204);
      const first = await call<ListBody<Template>>('GET', '/v1/project-templates?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.links.next);
      for (const item of first.body.data) assertShape('listProjectTemplates', item);
      const all = await listAllPages<Template>(cell.v1, '/v1/project-templates?limit=2', cell.admin);
      const ids = all.map((t) => t.id);
      for (const t of made) assert.ok(ids.includes(t.id));
      assert.ok(!ids.includes(archived.id));
      assert.ok(!ids.includes(other.templateId));
      assert.deepEqual(ids, [...ids].sort());
    });

    it("another workspace's template answers 404 and is not changed", async () => {
      assertProblem(await call('GET', `/v1/project-templates/${other.templateId}`, cell.admin), 404, 'not_found');
      assertProblem(await call('PATCH', `/v1/project-templates/${other.templateId}`, cell.admin, { name: 'hijack' }, ifMatch(1)), 404, 'not_found');
      assertProblem(await call('DELETE', `/v1/project-templates/${other.templateId}`, cell.admin, undefined, ifMatch(1)), 404, 'not_found');
      assertProblem(await call('POST', `/v1/project-templates/${other.templateId}/instantiate`, cell.admin, { name: 'x', startsOn: '2026-01-01' }), 404, 'not_found');
      assertProblem(await call('GET', '/v1/project-templates/not-a-uuid', cell.admin), 404, 'not_found');
      const foreign = await row(other.templateId, other.workspaceId);
      assert.equal(foreign?.name, 'Foreign template');
      assert.equal(foreign?.revision, 1);
      assert.equal(foreign?.archivedAt, null);
    });
  });

  describe('If-Match writes', () => {
    it('updates with the current ETag: new revision, project_template.updated; the skeleton is replaced whole', async () => {
      const t = await create({ taskBlueprints: [{ title: 'a', offsetDays: 0 }] });
      const reply = await call<{ data: Template }>(
        'PATCH',
        `/v1/project-templates/${t.id}`,
        cell.admin,
        { name: 'Renamed', taskBlueprints: [{ title: 'b', offsetDays: 2, durationDays: 3 }] },
        ifMatch(1),
      );
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateProjectTemplate', reply.body.data);
      assert.equal(reply.body.data.name, 'Renamed');
      assert.equal(reply.body.data.revision, '2');
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual(reply.body.data.taskBlueprints, [{ title: 'b', description: null, offsetDays: 2, durationDays: 3 }]);
      const events = await cell.outbox(t.id, 'project_template.updated');
      assert.equal(events.length, 1);
      assert.deepEqual((events[0]!.payload as { changed: string[] }).changed, ['name', 'taskBlueprints']);
    });

    it('428 without If-Match, 400 for malformed validators, 412 when stale, 400 for an empty patch; nothing changes', async () => {
      const t = await create();
      for (const [method, path, body] of [
        ['PATCH', `/v1/project-templates/${t.id}`, { name: 'x' }],
        ['DELETE', `/v1/project-templates/${t.id}`, undefined],
        ['POST', `/v1/project-templates/${t.id}/restore`, undefined],
      ] as const) {
        assertProblem(await call(method, path, cell.admin, body), 428, 'precondition_required');
        for (const value of ['W/"1"', '1', '"1", "2"', '*', '"abc"']) assertProblem(await call(method, path, cell.admin, body, { 'if-match': value }), 400, 'invalid_precondition');
        assertProblem(await call(method, path, cell.admin, body, ifMatch(9)), 412, 'precondition_failed');
      }
      assertProblem(await call('PATCH', `/v1/project-templates/${t.id}`, cell.admin, {}, ifMatch(1)), 400, 'validation_failed');
      const stored = await row(t.id);
      assert.equal(stored?.revision, 1);
      assert.equal(stored?.name, t.name);
      assert.equal(stored?.archivedAt, null);
      assert.equal((await cell.outbox(t.id)).length, 1);
    });

    it('of 20 concurrent writers with one ETag on two instances exactly one wins; the others get 412', async () => {
      const t = await create();
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call('PATCH', `/v1/project-templates/${t.id}`, cell.admin, { description: `writer ${i}` }, ifMatch(1), i % 2 ? cell.v1 : cell.v1b)),
      );
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 412).length, 19, JSON.stringify(statuses));
      assert.equal((await row(t.id))?.revision, 2);
      assert.equal((await cell.outbox(t.id, 'project_template.updated')).length, 1);
    });

    it('archives (204, never deletes) and restores with If-Match; wrong state is 409; archived is read-only', async () => {
      const t = await create();
      const archived = await call('DELETE', `/v1/project-templates/${t.id}`, cell.admin, undefined, ifMatch(1));
      assert.equal(archived.status, 204);
      const stored = await row(t.id);
      assert.ok(stored?.archivedAt);
      assert.equal(stored?.revision, 2);
      const got = await call<{ data: Template }>('GET', `/v1/project-templates/${t.id}`, cell.admin);
      assert.ok(got.body.data.archivedAt);
      assertProblem(await call('DELETE', `/v1/project-templates/${t.id}`, cell.admin, undefined, ifMatch(2)), 409, 'conflict');
      assertProblem(await call('PATCH', `/v1/project-templates/${t.id}`, cell.admin, { name: 'x' }, ifMatch(2)), 409, 'conflict');
      assertProblem(await call('POST', `/v1/project-templates/${t.id}/instantiate`, cell.admin, { name: 'x', startsOn: '2026-01-01' }), 409, 'conflict');
      const restored = await call<{ data: Template }>('POST', `/v1/project-templates/${t.id}/restore`, cell.admin, undefined, ifMatch(2));
      assert.equal(restored.status, 200);
      assertShape('restoreProjectTemplate', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assertProblem(await call('POST', `/v1/project-templates/${t.id}/restore`, cell.admin, undefined, ifMatch(3)), 409, 'conflict');
      assert.deepEqual(
        (await cell.outbox(t.id)).map((e) => e.eventType),
        ['project_template.created', 'project_template.archived', 'project_template.restored'],
      );
    });
  });

  describe('instantiateProjectTemplate', () => {
    it('creates the project and its skeleton tasks in one transaction: 201, Location, ETag, the Project shape, project.created', async () => {
      const t = await create({
        description: 'from template',
        taskBlueprints: [
          { title: 'Plan', offsetDays: 0, durationDays: 2 },
          { title: 'Build', description: 'do it', offsetDays: 3 },
        ],
      });
      const customer = await cell.database.prisma.contact.create({ data: { workspaceId: cell.workspaceId, displayName: 'Acme', kind: 'organization' } });
      const reply = await call<{ data: Project }>('POST', `/v1/project-templates/${t.id}/instantiate`, cell.admin, { name: 'Acme site', customerId: customer.id, startsOn: '2026-03-02' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const p = reply.body.data;
      assertShape('instantiateProjectTemplate', p);
      assert.equal(reply.headers.get('location'), `/v1/projects/${p.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.equal(p.name, 'Acme site');
      assert.equal(p.customerId, customer.id);
      assert.equal(p.startsOn, '2026-03-02');
      type TaskRow = { id: string; title: string; description: string | null; startDate: Date | null; dueDate: Date | null };
      const tasks: TaskRow[] = await cell.database.prisma.task.findMany({ where: { workspaceId: cell.workspaceId, projectId: p.id }, orderBy: { title: 'desc' } });
      assert.deepEqual(
        tasks.map((task) => [task.title, task.description, task.startDate?.toISOString().slice(0, 10), task.dueDate?.toISOString().slice(0, 10) ?? null]),
        [
          ['Plan', null, '2026-03-02', '2026-03-04'],
          ['Build', 'do it', '2026-03-05', null],
        ],
      );
      const [event] = await cell.outbox(p.id, 'project.created');
      assert.ok(event);
      const payload = event.payload as { projectTemplateId: string; taskIds: string[] };
      assert.equal(payload.projectTemplateId, t.id);
      assert.deepEqual([...payload.taskIds].sort(), tasks.map((task) => task.id).sort());
      for (const task of tasks) assert.equal((await cell.outbox(task.id, 'task.created')).length, 1);
      // The template itself is unchanged by instantiation.
      assert.equal((await row(t.id))?.revision, 1);
    });

    it('refuses an invalid body or an unknown customer with 400 and a pointer, creating nothing', async () => {
      const t = await create({ taskBlueprints: [{ title: 'x', offsetDays: 0 }] });
      const projects = await cell.database.prisma.project.count();
      const tasks = await cell.database.prisma.task.count();
      for (const [body, pointer] of [
        [{ startsOn: '2026-01-01' }, '/name'],
        [{ name: 'x', startsOn: 'soon' }, '/startsOn'],
        [{ name: 'x', startsOn: '2026-01-01', customerId: other.contactId }, '/customerId'],
        [{ name: 'x', startsOn: '2026-01-01', customerId: randomUUID() }, '/customerId'],
      ] as const) {
        const reply = await call('POST', `/v1/project-templates/${t.id}/instantiate`, cell.admin, body);
        assert.equal(reply.status, 400, JSON.stringify(reply.body));
        assertProblem(reply, 400, errorOf(reply).code, pointer);
      }
      assert.equal(await cell.database.prisma.project.count(), projects);
      assert.equal(await cell.database.prisma.task.count(), tasks);
    });

    it('an idempotent instantiation with the same key creates one project', async () => {
      const t = await create({ taskBlueprints: [{ title: 'once', offsetDays: 0 }] });
      const key = randomUUID();
      const body = { name: `Idem project ${++seq}`, startsOn: '2026-02-02' };
      const first = await call<{ data: Project }>('POST', `/v1/project-templates/${t.id}/instantiate`, cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Project }>('POST', `/v1/project-templates/${t.id}/instantiate`, cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.project.count({ where: { name: body.name } }), 1);
      assert.equal(await cell.database.prisma.task.count({ where: { projectId: first.body.data.id } }), 1);
    });
  });

  describe('resource grants', () => {
    it('a service account sees and reads only granted templates; a read grant cannot write; creating needs a type-wide write grant', async () => {
      const granted = await create();
      const hidden = await create();
      const scopes = ['project-templates:read', 'project-templates:write', 'projects:write'];
      const { token } = await cell.serviceAccount(scopes, [{ resourceType: 'project_template', resourceId: granted.id, access: 'read' }]);
      const listed = await listAllPages<Template>(cell.v1, '/v1/project-templates', token);
      assert.deepEqual(
        listed.map((t) => t.id),
        [granted.id],
      );
      assert.equal((await call('GET', `/v1/project-templates/${granted.id}`, token)).status, 200);
      assertProblem(await call('GET', `/v1/project-templates/${hidden.id}`, token), 404, 'not_found');
      assertProblem(await call('PATCH', `/v1/project-templates/${granted.id}`, token, { name: 'x' }, ifMatch(1)), 403, 'insufficient_grant');
      assertProblem(await call('DELETE', `/v1/project-templates/${granted.id}`, token, undefined, ifMatch(1)), 403, 'insufficient_grant');
      assertProblem(await call('POST', '/v1/project-templates', token, { name: 'x' }), 403, 'insufficient_grant');
      // Instantiating needs a type-wide project write grant besides the template read grant.
      assertProblem(await call('POST', `/v1/project-templates/${granted.id}/instantiate`, token, { name: 'x', startsOn: '2026-01-01' }), 403, 'insufficient_grant');
      assert.equal((await row(granted.id))?.revision, 1);

      const writer = await cell.serviceAccount(scopes, [
        { resourceType: 'project_template', resourceId: null, access: 'write' },
        { resourceType: 'project', resourceId: null, access: 'write' },
      ]);
      assert.equal((await call('POST', '/v1/project-templates', writer.token, { name: 'by sa' })).status, 201);
      assert.equal((await call('PATCH', `/v1/project-templates/${hidden.id}`, writer.token, { name: 'sa renamed' }, ifMatch(1))).status, 200);
      assert.equal((await call('POST', `/v1/project-templates/${granted.id}/instantiate`, writer.token, { name: 'sa project', startsOn: '2026-01-01' })).status, 201);
    });
  });
});
