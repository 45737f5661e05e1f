import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, type ListBody } from './support/v1.js';

/**
 * v1 lists (issue 6), end to end against the running services: scopes, tenancy, validation with JSON
 * pointers, last-writer-wins updates (the registry declares no precondition), archive/restore and list
 * exclusion, cursor pagination, outbox events written with the change, idempotent creates and the
 * registry's response shapes.
 */

const env = useTestEnvironment();

type List = { id: string; createdAt: string; updatedAt: string; archivedAt: string | null; name: string; kind: 'projects' | 'tasks'; position: number; color: string | null };

describe('v1 lists', () => {
  const cell = useV1Cell(env);
  const { call, listAll, mint, outbox } = cell;
  const other = { workspaceId: '', listId: '' };
  let seq = 0;

  const createList = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: List }>('POST', '/v1/lists', cell.admin, { name: `List ${++seq}`, kind: 'tasks', ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getList = async (id: string) => (await call<{ data: List }>('GET', `/v1/lists/${id}`, cell.admin)).body.data;

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.listId = (await cell.database.prisma.list.create({ data: { workspaceId: other.workspaceId, name: 'Foreign list', kind: 'task' } })).id;
  });

  describe('scopes', () => {
    it('lists:read reads but does not write', async () => {
      const reader = await mint(['lists:read']);
      const lst = await createList();
      assert.equal((await call('GET', `/v1/lists/${lst.id}`, reader)).status, 200);
      assert.equal((await call('GET', '/v1/lists', reader)).status, 200);
      assertProblem(await call('PATCH', `/v1/lists/${lst.id}`, reader, { name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('POST', '/v1/lists', reader, { name: 'x', kind: 'tasks' }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `/v1/lists/${lst.id}`, reader), 403, 'insufficient_scope');
      assert.equal((await getList(lst.id)).name, lst.name);
    });
  });

  describe('tenancy', () => {
    it('another workspace’s list answers exactly like a missing one (404) and is never changed or listed', async () => {
      for (const id of [other.listId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/lists/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/lists/${id}`, cell.admin, { name: 'Hijacked' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/lists/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/lists/${id}/restore`, cell.admin), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.list.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.listId } });
      assert.deepEqual([foreign.name, foreign.revision, foreign.archivedAt], ['Foreign list', 1, null]);
      assert.ok(!(await listAll<List>('/v1/lists?limit=200')).some((t) => t.id === other.listId));
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.listId } }), 0);
    });
  });

  describe('lists', () => {
    it('creates a list: 201, Location, strong ETag, the registry shape and list.created in the outbox', async () => {
      const reply = await call<{ data: List }>('POST', '/v1/lists', cell.admin, { name: '  Backlog ', kind: 'projects', position: 3, color: '#FF0000' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const t = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/lists/${t.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createList', t);
      assert.deepEqual(
        { name: t.name, kind: t.kind, position: t.position, color: t.color, archivedAt: t.archivedAt },
        { name: 'Backlog', kind: 'projects', position: 3, color: '#FF0000', archivedAt: null },
      );
      assert.equal((await cell.database.prisma.list.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: t.id } })).kind, 'project');
      assert.deepEqual(
        (await outbox(t.id)).map((e) => [e.eventType, e.aggregateType]),
        [['list.created', 'list']],
      );
      const got = await call<{ data: List }>('GET', `/v1/lists/${t.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getList', got.body.data);
      assert.deepEqual(got.body.data, t);
      const plain = await createList({ name: 'No colour' });
      assert.deepEqual([plain.kind, plain.position, plain.color], ['tasks', 0, null]);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/lists', cell.admin, { kind: 'tasks' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'No kind' }), 400, 'validation_failed', '/kind');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad kind', kind: 'task' }), 400, 'validation_failed', '/kind');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad position', kind: 'tasks', position: -1 }), 400, 'validation_failed', '/position');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad position', kind: 'tasks', position: 1.5 }), 400, 'validation_failed', '/position');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: '   ', kind: 'tasks' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'x'.repeat(201), kind: 'tasks' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad colour', kind: 'tasks', color: 'red' }), 400, 'validation_failed', '/color');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Extra', kind: 'tasks', weight: 3 }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `list-${randomUUID()}`;
      const body = { name: 'Idempotent list', kind: 'tasks' };
      const first = await call<{ data: List }>('POST', '/v1/lists', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: List }>('POST', '/v1/lists', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(second.headers.get('location'), first.headers.get('location'));
      assert.equal(await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent list' } }), 1);
      assert.equal((await outbox(first.body.data.id, 'list.created')).length, 1);
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Other', kind: 'tasks' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates name and colour (last writer wins, as the registry declares): the ETag moves on, list.updated is written', async () => {
      const t = await createList({ color: '#00ff00' });
      const reply = await call<{ data: List }>('PATCH', `/v1/lists/${t.id}`, cell.admin, { name: 'Renamed', position: 7, color: null });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateList', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.name, reply.body.data.position, reply.body.data.color, reply.body.data.kind], ['Renamed', 7, null, 'tasks']);
      assert.deepEqual(
        (await outbox(t.id)).map((e) => e.eventType),
        ['list.created', 'list.updated'],
      );
      const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => call('PATCH', `/v1/lists/${t.id}`, cell.admin, { name: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(
        replies.map((r) => r.status),
        [200, 200, 200, 200],
      );
      const now = await call<{ data: List }>('GET', `/v1/lists/${t.id}`, cell.admin);
      assert.equal(now.headers.get('etag'), '"6"', 'every write is counted, none is lost');
      assert.equal((await outbox(t.id, 'list.updated')).length, 5);
    });

    it('refuses invalid updates with 400 (pointer; unknown attribute; empty patch) and changes nothing', async () => {
      const t = await createList();
      assertProblem(await call('PATCH', `/v1/lists/${t.id}`, cell.admin, { name: '' }), 400, 'validation_failed', '/name');
      assertProblem(await call('PATCH', `/v1/lists/${t.id}`, cell.admin, { color: '#12345' }), 400, 'validation_failed', '/color');
      assertProblem(await call('PATCH', `/v1/lists/${t.id}`, cell.admin, { label: 'x' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/lists/${t.id}`, cell.admin, { kind: 'projects' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/lists/${t.id}`, cell.admin, { position: -2 }), 400, 'validation_failed', '/position');
      assertProblem(await call('PATCH', `/v1/lists/${t.id}`, cell.admin, {}), 400, 'validation_failed');
      assert.deepEqual(await getList(t.id), t);
      assert.equal((await outbox(t.id, 'list.updated')).length, 0);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const t = await createList({ name: 'Archivable' });
      const archived = await call('DELETE', `/v1/lists/${t.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.equal(archived.body, undefined);
      assert.ok(!(await listAll<List>('/v1/lists?limit=200')).some((x) => x.id === t.id));
      assert.ok((await getList(t.id)).archivedAt !== null);
      assert.equal(await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId, id: t.id } }), 1);
      assert.equal((await call('DELETE', `/v1/lists/${t.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: List }>('POST', `/v1/lists/${t.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreList', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.ok((await listAll<List>('/v1/lists?limit=200')).some((x) => x.id === t.id));
      assert.equal((await call('POST', `/v1/lists/${t.id}/restore`, cell.admin)).status, 200, 'restoring again is fine');
      assert.deepEqual(
        (await outbox(t.id)).map((e) => e.eventType),
        ['list.created', 'list.archived', 'list.restored'],
      );
    });

    it('pages with a cursor without gaps or repeats; bad cursors and limits are 400', async () => {
      const created: List[] = [];
      for (let i = 0; i < 5; i++) created.push(await createList({ name: `Pager ${i}`, kind: i % 2 ? 'projects' : 'tasks' }));
      const first = await call<ListBody<List>>('GET', '/v1/lists?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.equal(first.body.meta.limit, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listLists', item);
      const all = await listAll<List>('/v1/lists?limit=2');
      assert.equal(new Set(all.map((t) => t.id)).size, all.length, 'no repeats');
      assert.deepEqual(
        all.map((t) => t.id),
        [...all.map((t) => t.id)].sort(),
        'oldest first',
      );
      assert.deepEqual(
        all.filter((t) => created.some((c) => c.id === t.id)).map((t) => t.id),
        created.map((c) => c.id),
      );
      const projects = await listAll<List>('/v1/lists?kind=projects&limit=1');
      assert.ok(projects.every((l) => l.kind === 'projects'));
      assert.deepEqual(
        projects.filter((t) => created.some((c) => c.id === t.id)).map((t) => t.id),
        [created[1]!.id, created[3]!.id],
      );
      assertProblem(await call('GET', `/v1/lists?cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assertProblem(await call('GET', `/v1/lists?kind=projects&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', '/v1/lists?kind=task', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/lists?limit=0', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/lists?limit=201', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/lists?unknown=1', cell.admin)).status, 400);
    });
  });
});
