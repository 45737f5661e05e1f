import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { callApi, errorOf, type ErrorItem, type ListBody, type Reply } from './support/v1.js';

/**
 * v1 projects (issue 6), end to end against the running services: list / create / get / If-Match update,
 * scopes, tenancy, validation with pointers, preconditions (428 / 400 / 412), idempotent create replay, ETags,
 * outbox events in the mutation's transaction, pagination and concurrent writers.
 */

const env = useTestEnvironment();

type Project = {
  id: string;
  name: string;
  description: string | null;
  status: string;
  customerId: string | null;
  startsOn: string | null;
  dueOn: string | null;
  tagIds: string[];
  completedAt: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  revision: string;
};

describe('v1 projects', () => {
  const cell = useV1Cell(env);
  const { mint } = cell;
  let readOnly: string;
  const other = { workspaceId: '', projectId: '', tagId: '', contactId: '' };
  let tagId: string;
  let contactId: string;
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => callApi<T>(cell.v1, method, path, token, body, headers);
  const create = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: Project }>('POST', '/v1/projects', cell.admin, { name: `Project ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const outboxCount = (aggregateId: string, eventType?: string) =>
    cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, aggregateId, ...(eventType ? { eventType } : {}) } });

  beforeAll(async () => {
    readOnly = await mint(['projects:read']);
    tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: cell.workspaceId, name: 'blue' } })).id;
    contactId = (await cell.database.prisma.contact.create({ data: { workspaceId: cell.workspaceId, displayName: 'Acme' } })).id;
    other.workspaceId = await cell.otherWorkspace();
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign' } })).id;
    other.tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: other.workspaceId, name: 'foreign' } })).id;
    other.contactId = (await cell.database.prisma.contact.create({ data: { workspaceId: other.workspaceId, displayName: 'Foreign Co' } })).id;
  });

  describe('createProject', () => {
    it('creates with 201, Location, ETag and the body, and writes project.created in the same transaction', async () => {
      const reply = await call<{ data: Project }>('POST', '/v1/projects', cell.admin, {
        name: '  Launch  ',
        description: 'the launch',
        customerId: contactId,
        startsOn: '2026-01-01',
        dueOn: '2026-02-01',
        tagIds: [tagId],
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const p = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/projects/${p.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual(
        {
          name: p.name,
          description: p.description,
          status: p.status,
          customerId: p.customerId,
          startsOn: p.startsOn,
          dueOn: p.dueOn,
          tagIds: p.tagIds,
          revision: p.revision,
          archivedAt: p.archivedAt,
          completedAt: p.completedAt,
        },
        {
          name: 'Launch',
          description: 'the launch',
          status: 'active',
          customerId: contactId,
          startsOn: '2026-01-01',
          dueOn: '2026-02-01',
          tagIds: [tagId],
          revision: '1',
          archivedAt: null,
          completedAt: null,
        },
      );
      assert.equal(await outboxCount(p.id, 'project.created'), 1);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `project-${randomUUID()}`;
      const body = { name: 'Idempotent' };
      const first = await call<{ data: Project }>('POST', '/v1/projects', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Project }>('POST', '/v1/projects', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(second.headers.get('location'), first.headers.get('location'));
      assert.equal(second.headers.get('etag'), '"1"');
      assert.equal(await cell.database.prisma.project.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent' } }), 1);
      const reused = await call('POST', '/v1/projects', cell.admin, { name: 'Different' }, { 'idempotency-key': key });
      assert.equal(reused.status, 409);
      assert.equal(errorOf(reused).code, 'idempotency_key_reused');
    });

    it('validates the body with pointers and writes nothing', async () => {
      const before = await cell.database.prisma.project.count({ where: { workspaceId: cell.workspaceId } });
      const cases: [unknown, string][] = [
        [{}, '/name'],
        [{ name: '' }, '/name'],
        [{ name: 'x', startsOn: '2026-13-01' }, '/startsOn'],
        [{ name: 'x', status: 'completed' }, ''],
        [{ name: 'x', revision: '7' }, ''],
        [{ name: 'x', tagIds: ['not-a-tag'] }, '/tagIds/0'],
        [{ name: 'x', tagIds: [other.tagId] }, '/tagIds/0'],
        [{ name: 'x', tagIds: [tagId, tagId] }, '/tagIds/1'],
        [{ name: 'x', customerId: other.contactId }, '/customerId'],
        [{ name: 'x', customerId: randomUUID() }, '/customerId'],
      ];
      for (const [body, pointer] of cases) {
        const reply = await call('POST', '/v1/projects', cell.admin, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${reply.status} ${JSON.stringify(reply.body)}`);
        const pointers = (reply.body as { errors: ErrorItem[] }).errors.map((e) => e.source?.pointer ?? '');
        assert.ok(pointer === '' || pointers.includes(pointer), `${JSON.stringify(body)}: ${JSON.stringify(pointers)}`);
      }
      assert.equal(await cell.database.prisma.project.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('needs projects:write (403 insufficient_scope)', async () => {
      const reply = await call('POST', '/v1/projects', readOnly, { name: 'nope' });
      assert.equal(reply.status, 403);
      assert.equal(errorOf(reply).code, 'insufficient_scope');
    });
  });

  describe('getProject and listProjects', () => {
    it('reads one project with its ETag; another workspace’s or an unknown id is 404', async () => {
      const p = await create();
      const got = await call<{ data: Project }>('GET', `/v1/projects/${p.id}`, readOnly);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assert.deepEqual(got.body.data, p);
      for (const id of [other.projectId, randomUUID(), 'not-a-uuid']) {
        const missing = await call('GET', `/v1/projects/${id}`, cell.admin);
        assert.equal(missing.status, 404, id);
        assert.equal(errorOf(missing).code, 'not_found');
      }
      const noScope = await call('GET', `/v1/projects/${p.id}`, await mint(['tasks:read']));
      assert.equal(noScope.status, 403);
      assert.equal(errorOf(noScope).code, 'insufficient_scope');
    });

    it('pages with a cursor, never shows other workspaces or archived projects, and filters', async () => {
      const customer = (await cell.database.prisma.contact.create({ data: { workspaceId: cell.workspaceId, displayName: 'Paged customer' } })).id;
      const created = [await create({ customerId: customer }), await create({ customerId: customer }), await create({ customerId: customer })];
      await cell.database.prisma.project.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: created[1]!.id } }, data: { archivedAt: new Date() } });
      const seen: Project[] = [];
      let path: string | null = '/v1/projects?limit=2';
      let pages = 0;
      while (path) {
        const page: Reply<ListBody<Project>> = await call<ListBody<Project>>('GET', path, readOnly);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        assert.ok(page.body.data.length <= 2);
        seen.push(...page.body.data);
        path = page.body.links.next;
        pages++;
      }
      assert.ok(pages >= 2);
      const ids = seen.map((p) => p.id);
      assert.equal(new Set(ids).size, ids.length);
      assert.ok(ids.includes(created[0]!.id) && ids.includes(created[2]!.id));
      assert.ok(!ids.includes(created[1]!.id), 'archived projects are excluded');
      assert.ok(!ids.includes(other.projectId));
      const byCustomer = await call<ListBody<Project>>('GET', `/v1/projects?customerId=${customer}&limit=200`, readOnly);
      assert.deepEqual(
        byCustomer.body.data.map((p) => p.id),
        [created[0]!.id, created[2]!.id],
      );
      const archived = await call<ListBody<Project>>('GET', '/v1/projects?status=archived', readOnly);
      assert.deepEqual(
        archived.body.data.map((p) => [p.id, p.status]),
        [[created[1]!.id, 'archived']],
      );
      const badCursor = await call('GET', '/v1/projects?cursor=forged.cursor', readOnly);
      assert.equal(badCursor.status, 400);
      const badLimit = await call('GET', '/v1/projects?limit=0', readOnly);
      assert.equal(badLimit.status, 400);
    });
  });

  describe('updateProject (If-Match)', () => {
    it('changes the sent attributes, bumps the revision and ETag, writes project.updated', async () => {
      const p = await create({ description: 'keep me', tagIds: [tagId] });
      const reply = await call<{ data: Project }>('PATCH', `/v1/projects/${p.id}`, cell.admin, { name: 'Renamed', dueOn: '2026-05-05', tagIds: [] }, { 'if-match': '"1"' });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.equal(reply.body.data.name, 'Renamed');
      assert.equal(reply.body.data.description, 'keep me');
      assert.equal(reply.body.data.dueOn, '2026-05-05');
      assert.deepEqual(reply.body.data.tagIds, []);
      assert.equal(reply.body.data.revision, '2');
      assert.equal(await outboxCount(p.id, 'project.updated'), 1);
    });

    it('answers 428 without If-Match, 400 for weak, list and * validators, 412 when stale; nothing changes', async () => {
      const p = await create();
      const missing = await call('PATCH', `/v1/projects/${p.id}`, cell.admin, { name: 'x' });
      assert.equal(missing.status, 428);
      assert.equal(errorOf(missing).code, 'precondition_required');
      for (const value of ['W/"1"', '"1", "2"', '*', '1', '"abc"']) {
        const bad = await call('PATCH', `/v1/projects/${p.id}`, cell.admin, { name: 'x' }, { 'if-match': value });
        assert.equal(bad.status, 400, value);
        assert.equal(errorOf(bad).code, 'invalid_precondition', value);
      }
      const stale = await call('PATCH', `/v1/projects/${p.id}`, cell.admin, { name: 'x' }, { 'if-match': '"7"' });
      assert.equal(stale.status, 412);
      assert.equal(errorOf(stale).code, 'precondition_failed');
      const now = await call<{ data: Project }>('GET', `/v1/projects/${p.id}`, cell.admin);
      assert.deepEqual(now.body.data, p);
      assert.equal(await outboxCount(p.id, 'project.updated'), 0);
    });

    it('refuses unknown and read-only attributes, empty bodies and foreign references with 400', async () => {
      const p = await create();
      for (const [body, pointer] of [
        [{ status: 'completed' }, ''],
        [{ revision: '9' }, ''],
        [{ id: randomUUID() }, ''],
        [{ color: 'red' }, ''],
        [{}, ''],
        [{ customerId: other.contactId }, '/customerId'],
        [{ tagIds: [other.tagId] }, '/tagIds/0'],
      ] as const) {
        const reply = await call('PATCH', `/v1/projects/${p.id}`, cell.admin, body, { 'if-match': '"1"' });
        assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(reply.body)}`);
        if (pointer) assert.ok((reply.body as { errors: ErrorItem[] }).errors.some((e) => e.source?.pointer === pointer));
      }
      assert.equal((await call<{ data: Project }>('GET', `/v1/projects/${p.id}`, cell.admin)).body.data.revision, '1');
    });

    it('another workspace’s project is 404 even with its right revision; the scope is projects:write', async () => {
      const reply = await call('PATCH', `/v1/projects/${other.projectId}`, cell.admin, { name: 'hijack' }, { 'if-match': '"1"' });
      assert.equal(reply.status, 404);
      const foreign = await cell.database.prisma.project.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: other.projectId } } });
      assert.equal(foreign.name, 'Foreign');
      assert.equal(foreign.revision, 1);
      const p = await create();
      const noScope = await call('PATCH', `/v1/projects/${p.id}`, readOnly, { name: 'x' }, { 'if-match': '"1"' });
      assert.equal(noScope.status, 403);
      assert.equal(errorOf(noScope).code, 'insufficient_scope');
    });

    it('of 20 concurrent writers with the same ETag exactly one wins; the others get 412', async () => {
      const p = await create();
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => call('PATCH', `/v1/projects/${p.id}`, cell.admin, { description: `writer ${i}` }, { 'if-match': '"1"' })));
      const statuses = replies.map((r) => r.status).sort();
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 412).length, 19, JSON.stringify(statuses));
      const final = await call<{ data: Project }>('GET', `/v1/projects/${p.id}`, cell.admin);
      assert.equal(final.body.data.revision, '2');
      assert.equal(await outboxCount(p.id, 'project.updated'), 1);
    });
  });
});
