import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, type ListBody } from './support/v1.js';

/**
 * v1 tags (issue 6), end to end against the running services: scopes, tenancy, validation with JSON
 * pointers, last-writer-wins updates (the registry declares no precondition), archive/restore and list
 * exclusion, cursor pagination, outbox events written with the change, idempotent creates and the
 * registry's response shapes.
 */

const env = useTestEnvironment();

type Tag = { id: string; createdAt: string; updatedAt: string; archivedAt: string | null; name: string; color: string | null };

describe('v1 tags', () => {
  const cell = useV1Cell(env);
  const { call, listAll, mint, outbox } = cell;
  const other = { workspaceId: '', tagId: '' };
  let seq = 0;

  const createTag = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: Tag }>('POST', '/v1/tags', cell.admin, { name: `Tag ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getTag = async (id: string) => (await call<{ data: Tag }>('GET', `/v1/tags/${id}`, cell.admin)).body.data;

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: other.workspaceId, name: 'Foreign tag' } })).id;
  });

  describe('scopes', () => {
    it('tags:read reads but does not write', async () => {
      const reader = await mint(['tags:read']);
      const tag = await createTag();
      assert.equal((await call('GET', `/v1/tags/${tag.id}`, reader)).status, 200);
      assert.equal((await call('GET', '/v1/tags', reader)).status, 200);
      assertProblem(await call('PATCH', `/v1/tags/${tag.id}`, reader, { name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('POST', '/v1/tags', reader, { name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `/v1/tags/${tag.id}`, reader), 403, 'insufficient_scope');
      assert.equal((await getTag(tag.id)).name, tag.name);
    });
  });

  describe('tenancy', () => {
    it('another workspace’s tag answers exactly like a missing one (404) and is never changed or listed', async () => {
      for (const id of [other.tagId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/tags/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/tags/${id}`, cell.admin, { name: 'Hijacked' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/tags/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/tags/${id}/restore`, cell.admin), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.tag.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.tagId } });
      assert.deepEqual([foreign.name, foreign.revision, foreign.archivedAt], ['Foreign tag', 1, null]);
      assert.ok(!(await listAll<Tag>('/v1/tags?limit=200')).some((t) => t.id === other.tagId));
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.tagId } }), 0);
    });
  });

  describe('tags', () => {
    it('creates a tag: 201, Location, strong ETag, the registry shape and tag.created in the outbox', async () => {
      const reply = await call<{ data: Tag }>('POST', '/v1/tags', cell.admin, { name: '  Urgent ', color: '#FF0000' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const t = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/tags/${t.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createTag', t);
      assert.deepEqual({ name: t.name, color: t.color, archivedAt: t.archivedAt }, { name: 'Urgent', color: '#FF0000', archivedAt: null });
      assert.deepEqual(
        (await outbox(t.id)).map((e) => [e.eventType, e.aggregateType]),
        [['tag.created', 'tag']],
      );
      const got = await call<{ data: Tag }>('GET', `/v1/tags/${t.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getTag', got.body.data);
      assert.deepEqual(got.body.data, t);
      assert.equal((await createTag({ name: 'No colour' })).color, null);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/tags', cell.admin, {}), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: '   ' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'x'.repeat(201) }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'Bad colour', color: 'red' }), 400, 'validation_failed', '/color');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'Extra', weight: 3 }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `tag-${randomUUID()}`;
      const body = { name: 'Idempotent tag' };
      const first = await call<{ data: Tag }>('POST', '/v1/tags', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Tag }>('POST', '/v1/tags', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(second.headers.get('location'), first.headers.get('location'));
      assert.equal(await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent tag' } }), 1);
      assert.equal((await outbox(first.body.data.id, 'tag.created')).length, 1);
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'Other' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates name and colour (last writer wins, as the registry declares): the ETag moves on, tag.updated is written', async () => {
      const t = await createTag({ color: '#00ff00' });
      const reply = await call<{ data: Tag }>('PATCH', `/v1/tags/${t.id}`, cell.admin, { name: 'Renamed', color: null });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateTag', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.name, reply.body.data.color], ['Renamed', null]);
      assert.deepEqual(
        (await outbox(t.id)).map((e) => e.eventType),
        ['tag.created', 'tag.updated'],
      );
      const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => call('PATCH', `/v1/tags/${t.id}`, cell.admin, { name: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(
        replies.map((r) => r.status),
        [200, 200, 200, 200],
      );
      const now = await call<{ data: Tag }>('GET', `/v1/tags/${t.id}`, cell.admin);
      assert.equal(now.headers.get('etag'), '"6"', 'every write is counted, none is lost');
      assert.equal((await outbox(t.id, 'tag.updated')).length, 5);
    });

    it('refuses invalid updates with 400 (pointer; unknown attribute; empty patch) and changes nothing', async () => {
      const t = await createTag();
      assertProblem(await call('PATCH', `/v1/tags/${t.id}`, cell.admin, { name: '' }), 400, 'validation_failed', '/name');
      assertProblem(await call('PATCH', `/v1/tags/${t.id}`, cell.admin, { color: '#12345' }), 400, 'validation_failed', '/color');
      assertProblem(await call('PATCH', `/v1/tags/${t.id}`, cell.admin, { label: 'x' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/tags/${t.id}`, cell.admin, {}), 400, 'validation_failed');
      assert.deepEqual(await getTag(t.id), t);
      assert.equal((await outbox(t.id, 'tag.updated')).length, 0);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const t = await createTag({ name: 'Archivable' });
      const archived = await call('DELETE', `/v1/tags/${t.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.equal(archived.body, undefined);
      assert.ok(!(await listAll<Tag>('/v1/tags?limit=200')).some((x) => x.id === t.id));
      assert.ok((await getTag(t.id)).archivedAt !== null);
      assert.equal(await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId, id: t.id } }), 1);
      assert.equal((await call('DELETE', `/v1/tags/${t.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Tag }>('POST', `/v1/tags/${t.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreTag', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.ok((await listAll<Tag>('/v1/tags?limit=200')).some((x) => x.id === t.id));
      assert.equal((await call('POST', `/v1/tags/${t.id}/restore`, cell.admin)).status, 200, 'restoring again is fine');
      assert.deepEqual(
        (await outbox(t.id)).map((e) => e.eventType),
        ['tag.created', 'tag.archived', 'tag.restored'],
      );
    });

    it('pages with a cursor without gaps or repeats; bad cursors and limits are 400', async () => {
      const created: Tag[] = [];
      for (let i = 0; i < 5; i++) created.push(await createTag({ name: `Pager ${i}` }));
      const first = await call<ListBody<Tag>>('GET', '/v1/tags?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.equal(first.body.meta.limit, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listTags', item);
      const all = await listAll<Tag>('/v1/tags?limit=2');
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
      assertProblem(await call('GET', `/v1/tags?cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', '/v1/tags?limit=0', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/tags?limit=201', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/tags?unknown=1', cell.admin)).status, 400);
    });
  });
});
