import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { DOCUMENT_MAX_BODY_BYTES, DOCUMENT_MAX_CONTENT_CHARS } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { targetsOf, useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, type ListBody } from './support/v1.js';

/**
 * v1 documents end to end: scopes, tenancy, validation with JSON pointers, the content bound (413
 * payload_too_large, counted in characters, with a body limit that fits any content within it), targets (a readable,
 * unarchived contact, project or task of the workspace; kept when archived later), compare-and-set updates,
 * idempotent creates, archive/restore, filters and pagination, outbox events without the content and resource grants.
 */

const env = useTestEnvironment();

type Document = {
  id: string;
  archivedAt: string | null;
  title: string;
  format: 'markdown' | 'plain';
  content: string;
  sizeBytes: number;
  targetType: 'contacts' | 'projects' | 'tasks' | null;
  targetId: string | null;
  version: string;
};

const BASE = ['documents:read', 'documents:write'];

describe('v1 documents', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  const { contact, project, task } = targetsOf(cell);
  const other = { workspaceId: '', documentId: '', projectId: '' };
  let seq = 0;

  const createDocument = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Document }>('POST', '/v1/documents', token, { title: `Document ${++seq}`, format: 'markdown', content: '# Notes', ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body).slice(0, 500));
    return reply.body.data;
  };
  const getDocument = async (id: string, token = cell.admin) => (await call<{ data: Document }>('GET', `/v1/documents/${id}`, token)).body.data;
  const row = (id: string) => cell.database.prisma.document.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
  const count = () => cell.database.prisma.document.count({ where: { workspaceId: cell.workspaceId } });
  const listAll = (path: string, token?: string) => cell.listAll<Document>(path, token);

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign project' } })).id;
    other.documentId = (await cell.database.prisma.document.create({ data: { workspaceId: other.workspaceId, title: 'Foreign document', content: 'secret' } })).id;
  });

  describe('scopes', () => {
    it('documents:read reads but does not write; the target family’s read scope is not needed to attach', async () => {
      const reader = await cell.mint(['documents:read']);
      const d = await createDocument();
      assert.equal((await call('GET', `/v1/documents/${d.id}`, reader)).status, 200);
      assert.equal((await call('GET', '/v1/documents', reader)).status, 200);
      assertProblem(await call('POST', '/v1/documents', reader, { title: 'x', format: 'plain', content: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, reader, { title: 'x', expectedVersion: d.version }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `/v1/documents/${d.id}`, reader), 403, 'insufficient_scope');
      assertProblem(await call('POST', `/v1/documents/${d.id}/restore`, reader), 403, 'insufficient_scope');
      assert.equal((await row(d.id)).revision, 1);
      const projectId = await project();
      const writer = await cell.mint(BASE);
      const attached = await createDocument({ targetType: 'projects', targetId: projectId }, writer);
      assert.deepEqual([attached.targetType, attached.targetId], ['projects', projectId]);
    });
  });

  describe('tenancy', () => {
    it('another workspace’s document answers like a missing one (404) and is never changed or listed; its targets are unknown (400)', async () => {
      for (const id of [other.documentId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/documents/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/documents/${id}`, cell.admin, { title: 'Hijacked', expectedVersion: '1' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/documents/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/documents/${id}/restore`, cell.admin), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.document.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.documentId } });
      assert.deepEqual([foreign.title, foreign.content, foreign.revision, foreign.archivedAt], ['Foreign document', 'secret', 1, null]);
      assert.ok(!(await listAll('/v1/documents?limit=200')).some((d) => d.id === other.documentId));
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.documentId } }), 0);
      assertProblem(
        await call('POST', '/v1/documents', cell.admin, { title: 'x', format: 'plain', content: 'x', targetType: 'projects', targetId: other.projectId }),
        400,
        'validation_failed',
        '/targetId',
      );
      assert.deepEqual(await listAll(`/v1/documents?targetId=${other.projectId}`), []);
    });
  });

  describe('documents', () => {
    it('creates a document: 201, Location, ETag, sizeBytes in UTF-8 bytes, and document.created without the content', async () => {
      const content = 'Grüße 👋\n';
      const reply = await call<{ data: Document }>('POST', '/v1/documents', cell.admin, { title: '  Minutes ', format: 'plain', content });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const d = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/documents/${d.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createDocument', d);
      assert.deepEqual(
        [d.title, d.format, d.content, d.sizeBytes, d.targetType, d.targetId, d.archivedAt, d.version],
        ['Minutes', 'plain', content, Buffer.byteLength(content), null, null, null, '1'],
      );
      assert.equal(d.sizeBytes, 13, 'G r e and the space and line feed 1 byte each, ü ß 2, 👋 4');
      const events = await cell.outbox(d.id);
      assert.deepEqual(
        events.map((e) => [e.eventType, e.aggregateType]),
        [['document.created', 'document']],
      );
      const { content: _content, ...withoutContent } = d;
      assert.deepEqual((events[0]!.payload as { document: unknown }).document, withoutContent);
      const got = await call<{ data: Document }>('GET', `/v1/documents/${d.id}`, cell.admin);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getDocument', got.body.data);
      assert.deepEqual(got.body.data, d);
    });

    it('refuses invalid bodies with 400 and a pointer and writes nothing', async () => {
      const archivedContact = await contact();
      assert.equal((await call('DELETE', `/v1/contacts/${archivedContact}`, cell.admin)).status, 204);
      const before = await count();
      const ok = { title: 'x', format: 'plain', content: 'x' };
      const cases: [Record<string, unknown>, string][] = [
        [{ format: 'plain', content: 'x' }, '/title'],
        [{ ...ok, title: ' ' }, '/title'],
        [{ ...ok, title: 'x'.repeat(201) }, '/title'],
        [{ title: 'x', content: 'x' }, '/format'],
        [{ ...ok, format: 'html' }, '/format'],
        [{ title: 'x', format: 'plain' }, '/content'],
        [{ ...ok, content: 7 }, '/content'],
        [{ ...ok, targetType: 'projects' }, '/targetId'],
        [{ ...ok, targetType: 'projects', targetId: null }, '/targetId'],
        [{ ...ok, targetId: randomUUID() }, '/targetType'],
        [{ ...ok, targetType: 'files', targetId: randomUUID() }, '/targetType'],
        [{ ...ok, targetType: 'projects', targetId: randomUUID() }, '/targetId'],
        [{ ...ok, targetType: 'projects', targetId: 'nope' }, '/targetId'],
        [{ ...ok, targetType: 'contacts', targetId: archivedContact }, '/targetId'],
        [{ ...ok, targetType: 'tasks', targetId: await project() }, '/targetId'],
      ];
      for (const [body, pointer] of cases) assertProblem(await call('POST', '/v1/documents', cell.admin, body), 400, 'validation_failed', pointer);
      assertProblem(await call('POST', '/v1/documents', cell.admin, { ...ok, sizeBytes: 3 }), 400, 'validation_failed');
      assert.equal(await count(), before);
    });

    it('content over the bound is 413 payload_too_large at /content, on create and update, and writes nothing', async () => {
      const d = await createDocument();
      const before = await count();
      const over = 'x'.repeat(DOCUMENT_MAX_CONTENT_CHARS + 1);
      const refused = await call('POST', '/v1/documents', cell.admin, { title: 'Too long', format: 'plain', content: over });
      assertProblem(refused, 413, 'payload_too_large', '/content');
      assert.match(errorOf(refused).detail, /1000000 characters/);
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { content: over, expectedVersion: d.version }), 413, 'payload_too_large', '/content');
      // The bound counts characters (code points), not UTF-16 units: one more emoji than the bound is refused too.
      assertProblem(await call('POST', '/v1/documents', cell.admin, { title: 'Emoji', format: 'plain', content: '😀'.repeat(DOCUMENT_MAX_CONTENT_CHARS + 1) }), 413, 'payload_too_large', '/content');
      assert.equal(await count(), before);
      assert.equal((await row(d.id)).revision, 1);
      assert.deepEqual(
        (await cell.outbox(d.id)).map((e) => e.eventType),
        ['document.created'],
      );
    });

    it('content at the bound is stored, however many bytes it takes; a body over the operation’s limit is 413 too; other operations keep 1 MiB', async () => {
      const ascii = await createDocument({ content: 'x'.repeat(DOCUMENT_MAX_CONTENT_CHARS) });
      assert.equal(ascii.sizeBytes, DOCUMENT_MAX_CONTENT_CHARS);
      const emoji = '😀'.repeat(DOCUMENT_MAX_CONTENT_CHARS);
      const wide = await createDocument({ content: emoji });
      assert.equal(wide.sizeBytes, 4 * DOCUMENT_MAX_CONTENT_CHARS, 'four UTF-8 bytes a character');
      assert.equal((await row(wide.id)).content, emoji);
      const replaced = await call<{ data: Document }>('PATCH', `/v1/documents/${ascii.id}`, cell.admin, { content: 'ä'.repeat(DOCUMENT_MAX_CONTENT_CHARS), expectedVersion: ascii.version });
      assert.equal(replaced.status, 200);
      assert.equal(replaced.body.data.sizeBytes, 2 * DOCUMENT_MAX_CONTENT_CHARS);
      const before = await count();
      const huge = await call('POST', '/v1/documents', cell.admin, { title: 'Huge', format: 'plain', content: 'x'.repeat(DOCUMENT_MAX_BODY_BYTES) });
      assertProblem(huge, 413, 'payload_too_large');
      assert.equal(await count(), before);
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'x'.repeat(1_100_000) }), 413, 'payload_too_large');
    });

    it('attaches to a contact, project or task of the workspace (fixed at creation); filters lists by target type and id', async () => {
      const [c, p, t] = [await contact(), await project(), await task()];
      const onContact = await createDocument({ targetType: 'contacts', targetId: c.toUpperCase() });
      assert.deepEqual([onContact.targetType, onContact.targetId], ['contacts', c]);
      assert.deepEqual((await row(onContact.id)).targetType, 'contact');
      const onProject = await createDocument({ targetType: 'projects', targetId: p });
      const onProject2 = await createDocument({ targetType: 'projects', targetId: p });
      const onTask = await createDocument({ targetType: 'tasks', targetId: t });
      const loose = await createDocument({ targetType: null, targetId: null });
      assert.equal(loose.targetType, null);
      assert.deepEqual(
        (await listAll(`/v1/documents?targetId=${p}&limit=1`)).map((d) => d.id),
        [onProject.id, onProject2.id],
      );
      assert.deepEqual(
        (await listAll(`/v1/documents?targetType=projects&targetId=${p.toUpperCase()}`)).map((d) => d.id),
        [onProject.id, onProject2.id],
      );
      assert.deepEqual(await listAll(`/v1/documents?targetType=tasks&targetId=${p}`), []);
      const byType = (await listAll('/v1/documents?targetType=tasks&limit=200')).map((d) => d.id);
      assert.ok(byType.includes(onTask.id) && !byType.includes(onProject.id) && !byType.includes(loose.id));
      assert.deepEqual(await listAll(`/v1/documents?targetId=${randomUUID()}`), []);
      assert.deepEqual(await listAll('/v1/documents?targetId=not-a-uuid'), []);
      assertProblem(await call('GET', '/v1/documents?targetType=files', cell.admin), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/documents/${onTask.id}`, cell.admin, { targetId: p, expectedVersion: '1' }), 400, 'validation_failed');
      assert.deepEqual((await getDocument(onTask.id)).targetId, t);
    });

    it('a target archived later keeps its documents: readable, listed under it and changeable', async () => {
      const c = await contact();
      const d = await createDocument({ targetType: 'contacts', targetId: c });
      assert.equal((await call('DELETE', `/v1/contacts/${c}`, cell.admin)).status, 204);
      const got = await getDocument(d.id);
      assert.deepEqual([got.targetType, got.targetId, got.archivedAt], ['contacts', c, null]);
      assert.deepEqual(
        (await listAll(`/v1/documents?targetId=${c}`)).map((x) => x.id),
        [d.id],
      );
      const changed = await call<{ data: Document }>('PATCH', `/v1/documents/${d.id}`, cell.admin, { title: 'Still here', expectedVersion: d.version });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.data.targetId, c);
      assertProblem(await call('POST', '/v1/documents', cell.admin, { title: 'x', format: 'plain', content: 'x', targetType: 'contacts', targetId: c }), 400, 'validation_failed', '/targetId');
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `document-${randomUUID()}`;
      const body = { title: 'Idempotent document', format: 'markdown', content: 'Once.' };
      const first = await call<{ data: Document }>('POST', '/v1/documents', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Document }>('POST', '/v1/documents', cell.admin, body, { 'idempotency-key': key }, cell.v1b);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.deepEqual(second.body, first.body);
      assert.equal(await cell.database.prisma.document.count({ where: { workspaceId: cell.workspaceId, title: 'Idempotent document' } }), 1);
      assertProblem(await call('POST', '/v1/documents', cell.admin, { ...body, content: 'Twice?' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates are compare-and-set: the current version wins once, a stale one is 409 version_conflict, none is 400 (If-Match is no substitute)', async () => {
      const d = await createDocument({ content: 'keep' });
      const reply = await call<{ data: Document }>('PATCH', `/v1/documents/${d.id}`, cell.admin, { title: 'Renamed', format: 'plain', expectedVersion: d.version });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateDocument', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.title, reply.body.data.format, reply.body.data.content, reply.body.data.version], ['Renamed', 'plain', 'keep', '2']);
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { title: 'Stale', expectedVersion: d.version }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { title: 'No version' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { title: 'No version' }, { 'if-match': '"2"' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { title: '', expectedVersion: '2' }), 400, 'validation_failed', '/title');
      assertProblem(await call('PATCH', `/v1/documents/${d.id}`, cell.admin, { content: 'x', color: 'red', expectedVersion: '2' }), 400, 'validation_failed');
      const racers = await Promise.all([0, 1, 2, 3].map((i) => call('PATCH', `/v1/documents/${d.id}`, cell.admin, { content: `racer ${i}`, expectedVersion: '2' }, {}, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(racers.map((r) => r.status).sort(), [200, 409, 409, 409]);
      assert.equal((await row(d.id)).revision, 3);
      const events = await cell.outbox(d.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['document.created', 'document.updated', 'document.updated'],
      );
      assert.deepEqual((events[1]!.payload as { changed: string[] }).changed, ['title', 'format']);
      assert.deepEqual((events[2]!.payload as { changed: string[] }).changed, ['content']);
      for (const e of events) assert.ok(!('content' in (e.payload as { document: object }).document), e.eventType);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both, never with the content', async () => {
      const d = await createDocument({ content: 'archived text' });
      const archived = await call('DELETE', `/v1/documents/${d.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.ok(!(await listAll('/v1/documents?limit=200')).some((x) => x.id === d.id));
      const seen = await getDocument(d.id);
      assert.ok(seen.archivedAt !== null);
      assert.equal(seen.content, 'archived text');
      assert.equal((await call('DELETE', `/v1/documents/${d.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Document }>('POST', `/v1/documents/${d.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreDocument', restored.body.data);
      assert.deepEqual([restored.body.data.archivedAt, restored.body.data.content], [null, 'archived text']);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.ok((await listAll('/v1/documents?limit=200')).some((x) => x.id === d.id));
      assert.equal((await call('POST', `/v1/documents/${d.id}/restore`, cell.admin)).status, 200, 'restoring again is fine');
      const events = await cell.outbox(d.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['document.created', 'document.archived', 'document.restored'],
      );
      assert.ok(events.every((e) => !JSON.stringify(e.payload).includes('archived text')));
      const changes = await cell.listAll<{ resourceType: string; resourceId: string; action: string }>('/v1/changes?types=documents&limit=200');
      assert.deepEqual(
        changes.filter((c) => c.resourceId === d.id).map((c) => `${c.resourceType} ${c.action}`),
        ['documents created', 'documents archived', 'documents restored'],
      );
    });

    it('pages with a cursor without gaps or repeats; bad cursors and limits are 400', async () => {
      const made: Document[] = [];
      for (let i = 0; i < 5; i++) made.push(await createDocument({ title: `Pager ${i}` }));
      const first = await call<ListBody<Document>>('GET', '/v1/documents?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listDocuments', item);
      const all = await listAll('/v1/documents?limit=2');
      assert.equal(new Set(all.map((d) => d.id)).size, all.length, 'no repeats');
      assert.deepEqual(
        all.map((d) => d.id),
        [...all.map((d) => d.id)].sort(),
        'oldest first',
      );
      assert.deepEqual(
        all.filter((d) => made.some((m) => m.id === d.id)).map((d) => d.id),
        made.map((m) => m.id),
      );
      assertProblem(await call('GET', `/v1/documents?cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assertProblem(await call('GET', `/v1/documents?targetType=projects&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', '/v1/documents?limit=0', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/documents?limit=201', cell.admin)).status, 400);
    });
  });

  describe('resource grants', () => {
    it('a service account sees and changes only granted documents; a read grant cannot write; creating needs a type-wide write grant; a target must be granted', async () => {
      const a = await createDocument();
      const b = await createDocument();
      const { token } = await cell.serviceAccount(BASE, [{ resourceType: 'document', resourceId: a.id, access: 'read' }]);
      assert.equal((await call('GET', `/v1/documents/${a.id}`, token)).status, 200);
      assertProblem(await call('GET', `/v1/documents/${b.id}`, token), 404, 'not_found');
      assert.deepEqual(
        (await listAll('/v1/documents?limit=200', token)).map((d) => d.id),
        [a.id],
      );
      assertProblem(await call('PATCH', `/v1/documents/${a.id}`, token, { title: 'x', expectedVersion: a.version }), 403, 'insufficient_grant');
      assertProblem(await call('DELETE', `/v1/documents/${a.id}`, token), 403, 'insufficient_grant');
      assertProblem(await call('POST', `/v1/documents/${a.id}/restore`, token), 403, 'insufficient_grant');
      assertProblem(await call('PATCH', `/v1/documents/${b.id}`, token, { title: 'x', expectedVersion: b.version }), 404, 'not_found');
      assertProblem(await call('POST', '/v1/documents', token, { title: 'x', format: 'plain', content: 'x' }), 403, 'insufficient_grant');
      assert.equal((await row(a.id)).revision, 1);

      const none = await cell.serviceAccount(BASE, []);
      assert.deepEqual(await listAll('/v1/documents', none.token), []);
      assertProblem(await call('GET', `/v1/documents/${a.id}`, none.token), 404, 'not_found');

      const p = await project();
      const writer = await cell.serviceAccount(BASE, [{ resourceType: 'document', resourceId: null, access: 'write' }]);
      const byWriter = await call<{ data: Document }>('POST', '/v1/documents', writer.token, { title: 'By SA', format: 'plain', content: 'x' });
      assert.equal(byWriter.status, 201, JSON.stringify(byWriter.body));
      assertProblem(await call('POST', '/v1/documents', writer.token, { title: 'x', format: 'plain', content: 'x', targetType: 'projects', targetId: p }), 400, 'validation_failed', '/targetId');
      assert.equal((await call('PATCH', `/v1/documents/${b.id}`, writer.token, { title: 'Changed by SA', expectedVersion: b.version })).status, 200);
      const withTarget = await cell.serviceAccount(BASE, [
        { resourceType: 'document', resourceId: null, access: 'write' },
        { resourceType: 'project', resourceId: p, access: 'read' },
      ]);
      assert.equal((await call('POST', '/v1/documents', withTarget.token, { title: 'x', format: 'plain', content: 'x', targetType: 'projects', targetId: p })).status, 201);
    });
  });
});
