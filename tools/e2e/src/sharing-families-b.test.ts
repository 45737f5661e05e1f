import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, type Reply } from './support/v1.js';

/**
 * Project sharing (issue 24) for what attaches to a target: comments, activity, documents and custom-field values
 * follow their target's project (a task's project; a contact belongs to none). A project with access-control
 * entries hides all of it from a member it does not list (404, absent from lists; a reference to it 400), lets a
 * `viewer` read but not write (commenting included: docs/comments-and-activity.md), an `editor` write; an open
 * project and a contact behave as before; a listed service account works within its grants, an unlisted one sees
 * nothing of the project.
 */

const env = useTestEnvironment();

/** Every v1 scope a member holds without administering the workspace (an administrator sees every project). */
const MEMBER_SCOPES = V1_SCOPES.filter((s) => s !== 'roles:write' && s !== 'members:write');
const SA_SCOPES = [
  'projects:read',
  'tasks:read',
  'tasks:write',
  'contacts:read',
  'comments:read',
  'comments:write',
  'activity:read',
  'documents:read',
  'documents:write',
  'custom-field-values:read',
  'custom-field-values:write',
];

type Item = { id: string };
type Comment = Item & { body: string };
type Document = Item & { version: string; title: string };
type Values = { values: Record<string, unknown>; version: string };

describe('project sharing: comments, activity, documents and custom-field values follow the target', () => {
  const cell = useV1Cell(env);
  const tokens = { outsider: '', viewer: '', editor: '', listedSa: '', unlistedSa: '' };
  /** P: shared (viewer, editor, listed service account); T: a task in P; O: an open project, TO its task; C: a contact. */
  const ids = { P: '', T: '', O: '', TO: '', C: '' };
  const comments = { onP: '', onT: '', byViewer: '' };
  const documents = { onP: '', onT: '', onO: '', onC: '', none: '' };
  let fieldKey = '';

  const answered = async <T>(reply: Promise<Reply<T>>, status: number): Promise<T> => {
    const r = await reply;
    assert.equal(r.status, status, JSON.stringify(r.body));
    return r.body;
  };
  const create = async (path: string, body: unknown, token = cell.admin) => ((await answered(cell.call<{ data: Item }>('POST', path, token, body), 201)) as { data: Item }).data.id;
  const comment = (token: string, targetType: string, targetId: string) => cell.call<{ data: Comment }>('POST', '/v1/comments', token, { targetType, targetId, body: `Said ${randomUUID()}` });
  const commentIds = async (targetType: string, targetId: string, token: string) => (await cell.listAll<Comment>(`/v1/comments?targetType=${targetType}&targetId=${targetId}`, token)).map((c) => c.id);
  const activityPath = (targetType: string, targetId: string) => `/v1/activity?targetType=${targetType}&targetId=${targetId}`;
  const documentIds = async (token: string, query = '') => (await cell.listAll<Document>(`/v1/documents${query}`, token)).map((d) => d.id);
  const newDocument = (token: string, target?: { targetType: string; targetId: string }) =>
    cell.call<{ data: Document }>('POST', '/v1/documents', token, { title: 'Doc', format: 'plain', content: 'text', ...target });
  const documentVersion = async (id: string) => ((await answered(cell.call<{ data: Document }>('GET', `/v1/documents/${id}`, cell.admin), 200)) as { data: Document }).data.version;
  const valuesPath = (segment: string, id: string) => `/v1/${segment}/${id}/custom-field-values`;
  const values = async (segment: string, id: string) => ((await answered(cell.call<{ data: Values }>('GET', valuesPath(segment, id), cell.admin), 200)) as { data: Values }).data;
  const writeValue = async (token: string, segment: string, id: string) =>
    cell.call<{ data: Values }>('PATCH', valuesPath(segment, id), token, { expectedVersion: (await values(segment, id)).version, values: { [fieldKey]: `set ${randomUUID()}` } });

  beforeAll(async () => {
    const member = async () => (await cell.member(MEMBER_SCOPES)).mint(MEMBER_SCOPES);
    const viewer = await cell.member(MEMBER_SCOPES);
    const editor = await cell.member(MEMBER_SCOPES);
    tokens.outsider = await member();
    tokens.viewer = await viewer.mint(MEMBER_SCOPES);
    tokens.editor = await editor.mint(MEMBER_SCOPES);
    ids.P = await create('/v1/projects', { name: 'Shared project' });
    ids.T = await create('/v1/tasks', { title: 'Task in the shared project', projectId: ids.P });
    ids.O = await create('/v1/projects', { name: 'Open project' });
    ids.TO = await create('/v1/tasks', { title: 'Task in the open project', projectId: ids.O });
    ids.C = await create('/v1/contacts', { kind: 'person', name: 'A contact' });
    const grants = [
      { resourceType: 'project', resourceId: ids.P, access: 'write' },
      { resourceType: 'project', resourceId: ids.O, access: 'write' },
      { resourceType: 'task', resourceId: null, access: 'write' },
      { resourceType: 'contact', resourceId: null, access: 'write' },
      { resourceType: 'comment', resourceId: null, access: 'write' },
      { resourceType: 'document', resourceId: null, access: 'write' },
    ] as const;
    const listed = await cell.serviceAccount(SA_SCOPES, grants);
    tokens.listedSa = listed.token;
    tokens.unlistedSa = (await cell.serviceAccount(SA_SCOPES, grants)).token;

    comments.onP = (await answered(comment(cell.admin, 'projects', ids.P), 201)).data.id;
    comments.onT = (await answered(comment(cell.admin, 'tasks', ids.T), 201)).data.id;
    // Written while the project was still open: its author is a viewer once the entries exist.
    comments.byViewer = (await answered(comment(tokens.viewer, 'tasks', ids.T), 201)).data.id;
    documents.onP = (await answered(newDocument(cell.admin, { targetType: 'projects', targetId: ids.P }), 201)).data.id;
    documents.onT = (await answered(newDocument(cell.admin, { targetType: 'tasks', targetId: ids.T }), 201)).data.id;
    documents.onO = (await answered(newDocument(cell.admin, { targetType: 'projects', targetId: ids.O }), 201)).data.id;
    documents.onC = (await answered(newDocument(cell.admin, { targetType: 'contacts', targetId: ids.C }), 201)).data.id;
    documents.none = (await answered(newDocument(cell.admin), 201)).data.id;
    fieldKey = `shared_${randomUUID().slice(0, 8)}`;
    await create('/v1/custom-field-definitions', { key: fieldKey, label: 'Shared field', fieldType: 'text', targetTypes: ['projects', 'tasks', 'contacts'] });

    const sharing = (await answered(cell.call<{ data: { version: string } }>('GET', `/v1/projects/${ids.P}/sharing`, cell.admin), 200)) as { data: { version: string } };
    await answered(
      cell.call('PUT', `/v1/projects/${ids.P}/sharing`, cell.admin, {
        expectedVersion: sharing.data.version,
        entries: [
          { principalType: 'member', principalId: viewer.memberId, access: 'viewer' },
          { principalType: 'member', principalId: editor.memberId, access: 'editor' },
          { principalType: 'service-account', principalId: listed.serviceAccountId, access: 'editor' },
        ],
      }),
      200,
    );
  });

  describe('comments', () => {
    it('an outsider finds neither the shared project’s nor its task’s comments: 404 by id and by target, and may not comment (400 /targetId)', async () => {
      for (const [type, id] of [
        ['projects', ids.P],
        ['tasks', ids.T],
      ] as const) {
        assertProblem(await cell.call('GET', `/v1/comments?targetType=${type}&targetId=${id}`, tokens.outsider), 404, 'not_found');
        assertProblem(await comment(tokens.outsider, type, id), 400, 'validation_failed', '/targetId');
      }
      for (const id of [comments.onP, comments.onT]) {
        assertProblem(await cell.call('GET', `/v1/comments/${id}`, tokens.outsider), 404, 'not_found');
        assertProblem(await cell.call('PATCH', `/v1/comments/${id}`, tokens.outsider, { body: 'Hijacked' }), 404, 'not_found');
        assertProblem(await cell.call('DELETE', `/v1/comments/${id}`, tokens.outsider), 404, 'not_found');
      }
    });

    it('a viewer reads them but does not comment, and no longer edits or deletes its own comment (403 insufficient_project_access)', async () => {
      assert.deepEqual(await commentIds('projects', ids.P, tokens.viewer), [comments.onP]);
      assert.deepEqual(await commentIds('tasks', ids.T, tokens.viewer), [comments.onT, comments.byViewer]);
      await answered(cell.call('GET', `/v1/comments/${comments.onT}`, tokens.viewer), 200);
      assertProblem(await comment(tokens.viewer, 'projects', ids.P), 403, 'insufficient_project_access');
      assertProblem(await comment(tokens.viewer, 'tasks', ids.T), 403, 'insufficient_project_access');
      assertProblem(await cell.call('PATCH', `/v1/comments/${comments.byViewer}`, tokens.viewer, { body: 'Edited' }), 403, 'insufficient_project_access');
      assertProblem(await cell.call('DELETE', `/v1/comments/${comments.byViewer}`, tokens.viewer), 403, 'insufficient_project_access');
      await answered(cell.call('GET', `/v1/comments/${comments.byViewer}`, tokens.viewer), 200);
    });

    it('an editor comments, edits and deletes its comment', async () => {
      const own = (await answered(comment(tokens.editor, 'tasks', ids.T), 201)).data.id;
      await answered(comment(tokens.editor, 'projects', ids.P), 201);
      await answered(cell.call('PATCH', `/v1/comments/${own}`, tokens.editor, { body: 'Edited' }), 200);
      await answered(cell.call('DELETE', `/v1/comments/${own}`, tokens.editor), 204);
      assertProblem(await cell.call('GET', `/v1/comments/${own}`, tokens.editor), 404, 'not_found');
    });

    it('an open project, its task and a contact behave as before for an outsider', async () => {
      for (const [type, id] of [
        ['projects', ids.O],
        ['tasks', ids.TO],
        ['contacts', ids.C],
      ] as const) {
        const own = (await answered(comment(tokens.outsider, type, id), 201)).data.id;
        assert.ok((await commentIds(type, id, tokens.outsider)).includes(own));
        await answered(cell.call('PATCH', `/v1/comments/${own}`, tokens.outsider, { body: 'Edited' }), 200);
      }
    });

    it('a listed service account comments within its grants; an unlisted one with the same grants sees nothing', async () => {
      assert.ok((await commentIds('projects', ids.P, tokens.listedSa)).includes(comments.onP));
      await answered(comment(tokens.listedSa, 'projects', ids.P), 201);
      await answered(cell.call('GET', `/v1/comments/${comments.onT}`, tokens.listedSa), 200);
      assertProblem(await cell.call('GET', `/v1/comments?targetType=projects&targetId=${ids.P}`, tokens.unlistedSa), 404, 'not_found');
      assertProblem(await cell.call('GET', `/v1/comments/${comments.onP}`, tokens.unlistedSa), 404, 'not_found');
      assertProblem(await comment(tokens.unlistedSa, 'projects', ids.P), 400, 'validation_failed', '/targetId');
      await answered(comment(tokens.unlistedSa, 'projects', ids.O), 201);
    });
  });

  describe('activity', () => {
    it('the shared project’s and its task’s activity is 404 for an outsider and an unlisted service account, readable when listed', async () => {
      for (const [type, id] of [
        ['projects', ids.P],
        ['tasks', ids.T],
      ] as const) {
        assertProblem(await cell.call('GET', activityPath(type, id), tokens.outsider), 404, 'not_found');
        assertProblem(await cell.call('GET', activityPath(type, id), tokens.unlistedSa), 404, 'not_found');
        for (const token of [tokens.viewer, tokens.editor, tokens.listedSa]) {
          const body = (await answered(cell.call<{ data: unknown[] }>('GET', activityPath(type, id), token), 200)) as { data: unknown[] };
          assert.ok(body.data.length > 0);
        }
      }
      for (const [type, id] of [
        ['projects', ids.O],
        ['tasks', ids.TO],
        ['contacts', ids.C],
      ] as const)
        await answered(cell.call('GET', activityPath(type, id), tokens.outsider), 200);
    });
  });

  describe('documents', () => {
    it('an outsider neither reads, lists, changes, archives nor attaches documents of the shared project or its task', async () => {
      for (const id of [documents.onP, documents.onT]) {
        assertProblem(await cell.call('GET', `/v1/documents/${id}`, tokens.outsider), 404, 'not_found');
        assertProblem(await cell.call('PATCH', `/v1/documents/${id}`, tokens.outsider, { title: 'Hijacked', expectedVersion: await documentVersion(id) }), 404, 'not_found');
        assertProblem(await cell.call('DELETE', `/v1/documents/${id}`, tokens.outsider), 404, 'not_found');
        assertProblem(await cell.call('POST', `/v1/documents/${id}/restore`, tokens.outsider), 404, 'not_found');
      }
      const listed = await documentIds(tokens.outsider);
      for (const id of [documents.onP, documents.onT]) assert.ok(!listed.includes(id));
      for (const id of [documents.onO, documents.onC, documents.none]) assert.ok(listed.includes(id));
      assert.deepEqual(await documentIds(tokens.outsider, `?targetType=projects&targetId=${ids.P}`), []);
      assertProblem(await newDocument(tokens.outsider, { targetType: 'projects', targetId: ids.P }), 400, 'validation_failed', '/targetId');
      assertProblem(await newDocument(tokens.outsider, { targetType: 'tasks', targetId: ids.T }), 400, 'validation_failed', '/targetId');
      assert.equal((await answered(cell.call<{ data: Document }>('GET', `/v1/documents/${documents.onP}`, cell.admin), 200)).data.title, 'Doc');
    });

    it('a viewer reads and lists them but changes, archives, restores and attaches nothing (403 insufficient_project_access)', async () => {
      await answered(cell.call('GET', `/v1/documents/${documents.onT}`, tokens.viewer), 200);
      const listed = await documentIds(tokens.viewer);
      for (const id of [documents.onP, documents.onT, documents.onO]) assert.ok(listed.includes(id));
      assertProblem(
        await cell.call('PATCH', `/v1/documents/${documents.onP}`, tokens.viewer, { title: 'Changed', expectedVersion: await documentVersion(documents.onP) }),
        403,
        'insufficient_project_access',
      );
      assertProblem(await cell.call('DELETE', `/v1/documents/${documents.onP}`, tokens.viewer), 403, 'insufficient_project_access');
      assertProblem(await cell.call('POST', `/v1/documents/${documents.onP}/restore`, tokens.viewer), 403, 'insufficient_project_access');
      assertProblem(await newDocument(tokens.viewer, { targetType: 'tasks', targetId: ids.T }), 403, 'insufficient_project_access');
      const row = await cell.database.prisma.document.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: documents.onP } });
      assert.deepEqual([row.title, row.archivedAt, row.revision], ['Doc', null, 1]);
    });

    it('an editor attaches, changes, archives and restores them', async () => {
      const id = (await answered(newDocument(tokens.editor, { targetType: 'tasks', targetId: ids.T }), 201)).data.id;
      await answered(cell.call('PATCH', `/v1/documents/${id}`, tokens.editor, { title: 'Changed', expectedVersion: await documentVersion(id) }), 200);
      await answered(cell.call('DELETE', `/v1/documents/${id}`, tokens.editor), 204);
      await answered(cell.call('POST', `/v1/documents/${id}/restore`, tokens.editor), 200);
    });

    it('documents of an open project, a contact or no target behave as before for an outsider', async () => {
      for (const target of [{ targetType: 'projects', targetId: ids.O }, { targetType: 'contacts', targetId: ids.C }, undefined]) {
        const id = (await answered(newDocument(tokens.outsider, target), 201)).data.id;
        await answered(cell.call('PATCH', `/v1/documents/${id}`, tokens.outsider, { title: 'Changed', expectedVersion: await documentVersion(id) }), 200);
        await answered(cell.call('DELETE', `/v1/documents/${id}`, tokens.outsider), 204);
      }
      await answered(cell.call('GET', `/v1/documents/${documents.onO}`, tokens.outsider), 200);
    });

    it('a listed service account works within its grants; an unlisted one with the same grants sees nothing of the project', async () => {
      await answered(cell.call('GET', `/v1/documents/${documents.onP}`, tokens.listedSa), 200);
      assert.ok((await documentIds(tokens.listedSa)).includes(documents.onT));
      await answered(newDocument(tokens.listedSa, { targetType: 'projects', targetId: ids.P }), 201);
      assertProblem(await cell.call('GET', `/v1/documents/${documents.onP}`, tokens.unlistedSa), 404, 'not_found');
      const unlisted = await documentIds(tokens.unlistedSa);
      assert.ok(!unlisted.includes(documents.onP) && !unlisted.includes(documents.onT) && unlisted.includes(documents.onO));
      assertProblem(await newDocument(tokens.unlistedSa, { targetType: 'projects', targetId: ids.P }), 400, 'validation_failed', '/targetId');
    });
  });

  describe('custom-field values', () => {
    it('an outsider neither reads nor writes the shared project’s or its task’s values (404); open targets and contacts as before', async () => {
      for (const [segment, id] of [
        ['projects', ids.P],
        ['tasks', ids.T],
      ] as const) {
        assertProblem(await cell.call('GET', valuesPath(segment, id), tokens.outsider), 404, 'not_found');
        assertProblem(await writeValue(tokens.outsider, segment, id), 404, 'not_found');
      }
      for (const [segment, id] of [
        ['projects', ids.O],
        ['tasks', ids.TO],
        ['contacts', ids.C],
      ] as const) {
        await answered(cell.call('GET', valuesPath(segment, id), tokens.outsider), 200);
        await answered(writeValue(tokens.outsider, segment, id), 200);
      }
    });

    it('a viewer reads them but a write is 403 insufficient_project_access; an editor writes', async () => {
      for (const [segment, id] of [
        ['projects', ids.P],
        ['tasks', ids.T],
      ] as const) {
        const before = await values(segment, id);
        await answered(cell.call('GET', valuesPath(segment, id), tokens.viewer), 200);
        assertProblem(await writeValue(tokens.viewer, segment, id), 403, 'insufficient_project_access');
        assert.deepEqual(await values(segment, id), before);
        const written = (await answered(writeValue(tokens.editor, segment, id), 200)) as { data: Values };
        assert.match(String(written.data.values[fieldKey]), /^set /);
      }
    });

    it('a listed service account reads and writes them within its grants; an unlisted one gets 404', async () => {
      await answered(cell.call('GET', valuesPath('tasks', ids.T), tokens.listedSa), 200);
      await answered(writeValue(tokens.listedSa, 'tasks', ids.T), 200);
      assertProblem(await cell.call('GET', valuesPath('tasks', ids.T), tokens.unlistedSa), 404, 'not_found');
      assertProblem(await writeValue(tokens.unlistedSa, 'tasks', ids.T), 404, 'not_found');
      await answered(cell.call('GET', valuesPath('tasks', ids.TO), tokens.unlistedSa), 200);
    });
  });
});
