import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { type SaGrant, startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, callApi, listAllPages } from './support/v1.js';

/**
 * Resource grants enforced on resource operations (issue 4: service-account credentials act "within their
 * scopes and resource grants"), end to end: a service account sees only what its grants name, a read grant
 * cannot write (403 insufficient_grant), creating needs a type-wide write grant, members are unaffected, and a
 * grant replacement applies to the very next request on another api-v1 instance.
 */

const env = useTestEnvironment();

type Resource = { id: string };

/** Each grantable family that is served today: how to create one as the owner, and its grant type. */
const FAMILIES = [
  { path: '/v1/projects', type: 'project', body: () => ({ name: `Granted project ${Math.random()}` }) },
  { path: '/v1/tasks', type: 'task', body: () => ({ title: `Granted task ${Math.random()}` }) },
  { path: '/v1/contacts', type: 'contact', body: () => ({ kind: 'person', name: `Granted contact ${Math.random()}` }) },
  { path: '/v1/contact-groups', type: 'contact_group', body: () => ({ name: `Granted group ${Math.random()}` }) },
  { path: '/v1/lists', type: 'list', body: () => ({ name: `Granted list ${Math.random()}`, kind: 'tasks' }) },
  { path: '/v1/tags', type: 'tag', body: () => ({ name: `Granted tag ${Math.random()}` }) },
  { path: '/v1/time-entries', type: 'time_entry', body: () => ({ startedAt: new Date(Date.now() - 86_400_000).toISOString(), durationSeconds: 60 }) },
] as const satisfies readonly { path: string; type: SaGrant['resourceType']; body: () => object }[];

describe('resource grants on resource operations', () => {
  let cell: V1Cell;
  let admin: string;
  const created = new Map<string, [Resource, Resource]>();

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}, app = cell.v1) => callApi<T>(app, method, path, token, body, headers);
  const create = async (path: string, body: object): Promise<Resource> => {
    const reply = await call<{ data: Resource }>('POST', path, admin, body);
    assert.equal(reply.status, 201, `${path}: ${JSON.stringify(reply.body)}`);
    return reply.body.data;
  };

  beforeAll(async () => {
    cell = await startV1Cell(env);
    admin = await cell.mint(V1_SCOPES);
    for (const family of FAMILIES) created.set(family.path, [await create(family.path, family.body()), await create(family.path, family.body())]);
    // A call note needs a contact.
    const contact = created.get('/v1/contacts')![0];
    created.set('/v1/call-notes', [await create('/v1/call-notes', { contactId: contact.id, content: 'one' }), await create('/v1/call-notes', { contactId: contact.id, content: 'two' })]);
  });

  afterAll(() => cell?.close());

  const families = () => [...FAMILIES.map((f) => [f.path, f.type] as const), ['/v1/call-notes', 'call_note'] as const];

  it('without any grant a service account sees nothing of any family: empty lists, 404 reads, 403 creates', async () => {
    const { token } = await cell.serviceAccount(V1_SCOPES, []);
    for (const [path] of families()) {
      const [one] = created.get(path)!;
      assert.deepEqual(await listAllPages<Resource>(cell.v1, path, token), [], `${path} lists nothing`);
      assertProblem(await call('GET', `${path}/${one.id}`, token), 404, 'not_found');
    }
    assertProblem(await call('POST', '/v1/tags', token, { name: 'Not allowed' }), 403, 'insufficient_grant');
    assertProblem(await call('POST', '/v1/projects', token, { name: 'Not allowed' }), 403, 'insufficient_grant');
    assert.equal(await cell.database.prisma.tag.count({ where: { name: 'Not allowed' } }), 0);
    // The owner (a member) is not bounded by grants.
    assert.ok((await listAllPages<Resource>(cell.v1, '/v1/tags', admin)).length >= 2);
  });

  it('a per-resource read grant shows exactly that resource, read-only, in every family', async () => {
    for (const [path, type] of families()) {
      const [granted, hidden] = created.get(path)!;
      const { token } = await cell.serviceAccount(V1_SCOPES, [{ resourceType: type, resourceId: granted.id, access: 'read' }]);
      assert.deepEqual(
        (await listAllPages<Resource>(cell.v1, path, token)).map((r) => r.id),
        [granted.id],
        `${path} lists only the granted one`,
      );
      assert.equal((await call('GET', `${path}/${granted.id}`, token)).status, 200, path);
      assertProblem(await call('GET', `${path}/${hidden.id}`, token), 404, 'not_found');
    }
  });

  it('a read grant cannot change the resource (403 insufficient_grant, nothing written); a write grant can', async () => {
    const [tag, other] = created.get('/v1/tags')!;
    const reader = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'tag', resourceId: tag.id, access: 'read' }]);
    assertProblem(await call('PATCH', `/v1/tags/${tag.id}`, reader.token, { name: 'Changed by a reader' }), 403, 'insufficient_grant');
    assertProblem(await call('DELETE', `/v1/tags/${tag.id}`, reader.token), 403, 'insufficient_grant');
    const row = await cell.database.prisma.tag.findFirstOrThrow({ where: { id: tag.id } });
    assert.equal(row.archivedAt, null);
    assert.notEqual(row.name, 'Changed by a reader');

    const writer = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'tag', resourceId: tag.id, access: 'write' }]);
    const patched = await call<{ data: { name: string } }>('PATCH', `/v1/tags/${tag.id}`, writer.token, { name: 'Changed by a writer' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.data.name, 'Changed by a writer');
    assertProblem(await call('PATCH', `/v1/tags/${other.id}`, writer.token, { name: 'Not granted' }), 404, 'not_found');
    assertProblem(await call('POST', '/v1/tags', writer.token, { name: 'Per-resource grants do not create' }), 403, 'insufficient_grant');

    // If-Match families check the grant too: a project read grant cannot update the project.
    const [project] = created.get('/v1/projects')!;
    const projectReader = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'project', resourceId: project.id, access: 'read' }]);
    const etag = (await call('GET', `/v1/projects/${project.id}`, projectReader.token)).headers.get('etag')!;
    assertProblem(await call('PATCH', `/v1/projects/${project.id}`, projectReader.token, { name: 'x' }, { 'if-match': etag }), 403, 'insufficient_grant');
    assertProblem(await call('POST', `/v1/projects/${project.id}/complete`, projectReader.token, undefined, { 'if-match': etag }), 403, 'insufficient_grant');
    const [task] = created.get('/v1/tasks')!;
    const taskReader = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'task', resourceId: task.id, access: 'read' }]);
    const taskEtag = (await call('GET', `/v1/tasks/${task.id}`, taskReader.token)).headers.get('etag')!;
    assertProblem(await call('PATCH', `/v1/tasks/${task.id}`, taskReader.token, { title: 'x' }, { 'if-match': taskEtag }), 403, 'insufficient_grant');
  });

  it('a type-wide write grant reads, lists, creates and changes every resource of that type and nothing else', async () => {
    const { token } = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'tag', resourceId: null, access: 'write' }]);
    const reply = await call<{ data: Resource }>('POST', '/v1/tags', token, { name: 'Created under a type-wide grant' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const listed = (await listAllPages<Resource>(cell.v1, '/v1/tags', token)).map((t) => t.id);
    for (const t of [...created.get('/v1/tags')!, reply.body.data]) assert.ok(listed.includes(t.id));
    assert.deepEqual(await listAllPages<Resource>(cell.v1, '/v1/lists', token), []);
    const typeReader = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'tag', resourceId: null, access: 'read' }]);
    assert.equal((await listAllPages<Resource>(cell.v1, '/v1/tags', typeReader.token)).length, listed.length);
    assertProblem(await call('POST', '/v1/tags', typeReader.token, { name: 'Type-wide read does not create' }), 403, 'insufficient_grant');
  });

  it('scopes still apply on top of grants: a grant never widens a credential’s scopes', async () => {
    const [tag] = created.get('/v1/tags')!;
    const { token } = await cell.serviceAccount(['tags:read'], [{ resourceType: 'tag', resourceId: null, access: 'write' }]);
    assert.equal((await call('GET', `/v1/tags/${tag.id}`, token)).status, 200);
    assertProblem(await call('PATCH', `/v1/tags/${tag.id}`, token, { name: 'x' }), 403, 'insufficient_scope');
  });

  it('the seeded demo service account works within its grants: every project and task, nothing else', async () => {
    const token = cell.demo.serviceAccountCredential;
    const projects = await listAllPages<Resource>(cell.v1, '/v1/projects', token);
    const tasks = await listAllPages<Resource>(cell.v1, '/v1/tasks', token);
    assert.ok(projects.length >= 3 && tasks.length >= 6, `${projects.length} projects, ${tasks.length} tasks`);
    const [task] = tasks;
    assert.equal((await call('GET', `/v1/tasks/${task!.id}`, token)).status, 200);
    assertProblem(await call('POST', '/v1/projects', token, { name: 'no' }), 403, 'insufficient_scope');
  });

  it('a grant replacement applies to the very next request on another api-v1 instance', async () => {
    const [tag] = created.get('/v1/tags')!;
    const { token, serviceAccountId } = await cell.serviceAccount(V1_SCOPES, []);
    assertProblem(await call('GET', `/v1/tags/${tag.id}`, token, undefined, {}, cell.v1b), 404, 'not_found');
    const grantsPath = `/v1/service-accounts/${serviceAccountId}/resource-grants`;
    const current = await call<{ data: { version: string } }>('GET', grantsPath, admin);
    const replaced = await call<{ data: { version: string } }>('PUT', grantsPath, admin, {
      expectedVersion: current.body.data.version,
      grants: [{ resourceType: 'tags', resourceId: tag.id, access: 'read' }],
    });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.equal((await call('GET', `/v1/tags/${tag.id}`, token, undefined, {}, cell.v1b)).status, 200);
    const emptied = await call('PUT', grantsPath, admin, { expectedVersion: replaced.body.data.version, grants: [] });
    assert.equal(emptied.status, 200, JSON.stringify(emptied.body));
    assertProblem(await call('GET', `/v1/tags/${tag.id}`, token, undefined, {}, cell.v1b), 404, 'not_found');
  });
});
