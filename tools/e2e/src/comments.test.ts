import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import type { Database } from '@workcell/db';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 comments (issue 13), end to end: the target type's read scope on top of comments:* (registry dynamicScopes
 * 'target-resource', contract 5.3), tenancy, validation with pointers, author-only edits and moderated deletes,
 * no precondition (the registry's concurrency for update and delete is none), resource grants, cursor paging,
 * idempotent creates and the comment events with their actor.
 */

const env = useTestEnvironment();

type Comment = {
  id: string;
  createdAt: string;
  updatedAt: string;
  targetType: 'contacts' | 'projects' | 'tasks';
  targetId: string;
  body: string;
  authorType: 'member' | 'service-account';
  authorId: string;
  editedAt: string | null;
};

const COMMENT_SCOPES = ['comments:read', 'comments:write'];

describe('v1 comments', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let ownerMemberId: string;
  let v1: RunningApp;
  let v1b: RunningApp;
  let admin: string;
  /** A member without administration permissions, and its token with every comment and target scope. */
  const colleague = { memberId: '', token: '' };
  const targets = { taskId: '', projectId: '', contactId: '', archivedTaskId: '' };
  const other = { workspaceId: '', taskId: '', commentId: '' };

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}, app: RunningApp = v1) =>
    callApi<T>(app, method, path, token, body, headers);
  const created = async (path: string, body: unknown): Promise<string> => {
    const reply = await call<{ data: { id: string } }>('POST', path, admin, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const comment = async (targetType: string, targetId: string, body = `Comment ${randomUUID()}`, token = admin) => {
    const reply = await call<{ data: Comment }>('POST', '/v1/comments', token, { targetType, targetId, body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getComment = async (id: string, token = admin) => {
    const reply = await call<{ data: Comment }>('GET', `/v1/comments/${id}`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const commentsOf = (targetType: string, targetId: string, token = admin) => listAllPages<Comment>(v1, `/v1/comments?targetType=${targetType}&targetId=${targetId}&limit=200`, token);
  const outbox = (aggregateId: string, eventType?: string) => cell.outbox(aggregateId, eventType);

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId, ownerMemberId, v1, v1b } = cell);
    admin = await cell.mint(V1_SCOPES);
    const everyTarget = ['tasks:read', 'projects:read', 'contacts:read'];
    const member = await cell.member([...COMMENT_SCOPES, ...everyTarget]);
    colleague.memberId = member.memberId;
    colleague.token = await member.mint([...COMMENT_SCOPES, ...everyTarget]);
    targets.taskId = await created('/v1/tasks', { title: 'Commented task' });
    targets.projectId = await created('/v1/projects', { name: 'Commented project' });
    targets.contactId = await created('/v1/contacts', { kind: 'person', name: 'Commented contact' });
    targets.archivedTaskId = await created('/v1/tasks', { title: 'Archived task' });
    assert.equal((await call('DELETE', `/v1/tasks/${targets.archivedTaskId}`, admin, undefined, { 'if-match': '"1"' })).status, 204);
    const ws = await database.prisma.workspace.create({ data: { name: 'Elsewhere', region: cell.config.region, cell: cell.config.cell } });
    other.workspaceId = ws.id;
    other.taskId = (await database.prisma.task.create({ data: { workspaceId: ws.id, title: 'Foreign task' } })).id;
    const user = await database.prisma.user.create({ data: { email: 'elsewhere@comments.test', name: 'Elsewhere' } });
    const foreignMember = (await database.prisma.workspaceMember.create({ data: { workspaceId: ws.id, userId: user.id } })).id;
    other.commentId = (await database.prisma.comment.create({ data: { workspaceId: ws.id, targetType: 'task', targetId: other.taskId, authorMemberId: foreignMember, body: 'Foreign' } })).id;
  });

  afterAll(() => cell?.close());

  describe("the target type's read scope (dynamicScopes 'target-resource')", () => {
    it("a task's comments need tasks:read: 403 insufficient_scope naming it without, served with it", async () => {
      const c = await comment('tasks', targets.taskId);
      const withoutTasks = await cell.mint([...COMMENT_SCOPES, 'projects:read', 'contacts:read']);
      const withTasks = await cell.mint([...COMMENT_SCOPES, 'tasks:read']);
      const requests: [string, string, unknown?][] = [
        ['GET', `/v1/comments?targetType=tasks&targetId=${targets.taskId}`],
        ['POST', '/v1/comments', { targetType: 'tasks', targetId: targets.taskId, body: 'Refused' }],
        ['GET', `/v1/comments/${c.id}`],
        ['PATCH', `/v1/comments/${c.id}`, { body: 'Refused' }],
        ['DELETE', `/v1/comments/${c.id}`],
      ];
      for (const [method, path, body] of requests) {
        const refused = await call(method, path, withoutTasks, body);
        assertProblem(refused, 403, 'insufficient_scope');
        assert.match(errorOf(refused).detail, /tasks:read/, `${method} ${path}`);
      }
      assert.equal((await getComment(c.id)).body, c.body, 'nothing changed');
      assert.equal(await database.prisma.comment.count({ where: { workspaceId, body: 'Refused' } }), 0);
      assert.equal((await call('GET', `/v1/comments?targetType=tasks&targetId=${targets.taskId}`, withTasks)).status, 200);
      assert.equal((await call('GET', `/v1/comments/${c.id}`, withTasks)).status, 200);
      assert.equal((await call('POST', '/v1/comments', withTasks, { targetType: 'tasks', targetId: targets.taskId, body: 'Allowed' })).status, 201);
      assert.equal((await call('PATCH', `/v1/comments/${c.id}`, withTasks, { body: 'Allowed edit' })).status, 200);
      assert.equal((await call('DELETE', `/v1/comments/${c.id}`, withTasks)).status, 204);
    });

    it('each target type needs its own read scope; holding none of the three is the gate’s 403; comments:* stays required', async () => {
      const onContact = await comment('contacts', targets.contactId);
      const onProject = await comment('projects', targets.projectId);
      const contactsOnly = await cell.mint([...COMMENT_SCOPES, 'contacts:read']);
      assert.equal((await call('GET', `/v1/comments/${onContact.id}`, contactsOnly)).status, 200);
      const refused = await call('GET', `/v1/comments/${onProject.id}`, contactsOnly);
      assertProblem(refused, 403, 'insufficient_scope');
      assert.match(errorOf(refused).detail, /projects:read/);
      const noTarget = await call('GET', `/v1/comments/${onContact.id}`, await cell.mint(COMMENT_SCOPES));
      assertProblem(noTarget, 403, 'insufficient_scope');
      assert.match(errorOf(noTarget).detail, /one of contacts:read \| projects:read \| tasks:read/);
      const noComments = await call('GET', `/v1/comments/${onContact.id}`, await cell.mint(['contacts:read', 'comments:write']));
      assertProblem(noComments, 403, 'insufficient_scope');
      assert.match(errorOf(noComments).detail, /comments:read/);
    });

    it('a personal token acts with its member’s permissions: a target scope the member lacks is refused the same way', async () => {
      const member = await cell.member([...COMMENT_SCOPES, 'projects:read']);
      const token = await member.mint([...COMMENT_SCOPES, 'projects:read', 'tasks:read']);
      const refused = await call('GET', `/v1/comments?targetType=tasks&targetId=${targets.taskId}`, token);
      assertProblem(refused, 403, 'insufficient_scope');
      assert.match(errorOf(refused).detail, /tasks:read/);
      assert.equal((await call('GET', `/v1/comments?targetType=projects&targetId=${targets.projectId}`, token)).status, 200);
    });
  });

  describe('comments', () => {
    it('creates a comment: 201, Location, ETag, the registry shape, the author from the credential, comment.created with its actor', async () => {
      const text = 'Line one\nline <b>two</b> & “three” 🙂\n';
      const reply = await call<{ data: Comment }>('POST', '/v1/comments', admin, { targetType: 'tasks', targetId: targets.taskId.toUpperCase(), body: text });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const c = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/comments/${c.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createComment', c);
      assert.deepEqual(
        [c.targetType, c.targetId, c.body, c.authorType, c.authorId, c.editedAt],
        ['tasks', targets.taskId, text, 'member', ownerMemberId, null],
        'the body is kept verbatim; the target id is stored lower case',
      );
      const got = await call<{ data: Comment }>('GET', `/v1/comments/${c.id}`, admin);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getComment', got.body.data);
      assert.deepEqual(got.body.data, c);
      const [event] = await outbox(c.id);
      assert.deepEqual([event?.eventType, event?.aggregateType, event?.actorType, event?.actorId], ['comment.created', 'comment', 'member', ownerMemberId]);
      assert.deepEqual((event?.payload as { comment: Comment }).comment, c);
      assert.ok((await commentsOf('tasks', targets.taskId)).some((x) => x.id === c.id));
      for (const [type, id] of [
        ['projects', targets.projectId],
        ['contacts', targets.contactId],
      ] as const) {
        const onIt = await comment(type, id);
        assert.deepEqual([onIt.targetType, onIt.targetId], [type, id]);
        assert.deepEqual((await commentsOf(type, id)).map((x) => x.id).slice(-1), [onIt.id]);
      }
    });

    it('refuses invalid bodies with 400 and a pointer and writes nothing; the body holds 1 to 10,000 characters', async () => {
      const before = await database.prisma.comment.count({ where: { workspaceId } });
      const base = { targetType: 'tasks', targetId: targets.taskId, body: 'x' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, body: '' }, '/body'],
        [{ ...base, body: 'x'.repeat(10_001) }, '/body'],
        [{ ...base, body: 42 }, '/body'],
        [{ targetType: 'tasks', targetId: targets.taskId }, '/body'],
        [{ ...base, targetType: 'users' }, '/targetType'],
        [{ body: 'x', targetId: targets.taskId }, '/targetType'],
        [{ ...base, targetId: 'no spaces allowed' }, '/targetId'],
        [{ ...base, targetId: randomUUID() }, '/targetId'],
        [{ ...base, targetId: 'not-a-uuid' }, '/targetId'],
        [{ ...base, targetId: other.taskId }, '/targetId'],
        [{ ...base, targetId: targets.archivedTaskId }, '/targetId'],
        [{ ...base, targetType: 'projects' }, '/targetId'],
      ];
      for (const [body, pointer] of cases) assertProblem(await call('POST', '/v1/comments', admin, body), 400, 'validation_failed', pointer);
      assertProblem(await call('POST', '/v1/comments', admin, { ...base, pinned: true }), 400, 'validation_failed');
      assert.equal(await database.prisma.comment.count({ where: { workspaceId } }), before);
      const longest = await comment('tasks', targets.taskId, 'y'.repeat(10_000));
      assert.equal(longest.body.length, 10_000);
      const c = await comment('tasks', targets.taskId);
      assertProblem(await call('PATCH', `/v1/comments/${c.id}`, admin, { body: '' }), 400, 'validation_failed', '/body');
      assertProblem(await call('PATCH', `/v1/comments/${c.id}`, admin, {}), 400, 'validation_failed', '/body');
      assertProblem(await call('PATCH', `/v1/comments/${c.id}`, admin, { body: 'x', targetId: targets.projectId }), 400, 'validation_failed');
      assert.deepEqual(await getComment(c.id), c);
    });

    it('needs a target that is read to exist in the workspace (404), and reads no cursor of another target', async () => {
      for (const id of [other.taskId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/comments?targetType=tasks&targetId=${id}`, admin), 404, 'not_found');
      }
      assertProblem(await call('GET', `/v1/comments?targetType=projects&targetId=${targets.taskId}`, admin), 404, 'not_found');
      const missing = await call('GET', '/v1/comments?targetType=tasks', admin);
      assertProblem(missing, 400, 'validation_failed');
      assert.equal(errorOf(missing).source?.parameter, 'targetId');
      assert.deepEqual(await commentsOf('tasks', targets.archivedTaskId), [], 'an archived target is still read');
    });
  });

  describe('tenancy', () => {
    it('another workspace’s comment answers exactly like a missing one (404) and is never changed', async () => {
      for (const id of [other.commentId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/comments/${id}`, admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/comments/${id}`, admin, { body: 'Hijacked' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/comments/${id}`, admin), 404, 'not_found');
      }
      const foreign = await database.prisma.comment.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.commentId } });
      assert.deepEqual([foreign.body, foreign.revision, foreign.archivedAt, foreign.editedAt], ['Foreign', 1, null, null]);
      assert.equal(await database.prisma.outboxEvent.count({ where: { aggregateId: other.commentId } }), 0);
    });
  });

  describe('authors, edits and deletes', () => {
    it('only the author edits: editedAt and the revision move on and comment.updated records the editor; anyone else is 403 forbidden', async () => {
      const mine = await comment('tasks', targets.taskId, 'Colleague wrote this', colleague.token);
      assert.deepEqual([mine.authorType, mine.authorId], ['member', colleague.memberId]);
      assertProblem(await call('PATCH', `/v1/comments/${mine.id}`, admin, { body: 'Owner rewrote it' }), 403, 'forbidden');
      assert.deepEqual(await getComment(mine.id), mine, 'not even an administrator edits another’s words');
      const edited = await call<{ data: Comment }>('PATCH', `/v1/comments/${mine.id}`, colleague.token, { body: 'Colleague edited this' });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assertShape('updateComment', edited.body.data);
      assert.equal(edited.headers.get('etag'), '"2"');
      assert.equal(edited.body.data.body, 'Colleague edited this');
      assert.ok(edited.body.data.editedAt !== null && edited.body.data.editedAt >= mine.createdAt);
      assert.deepEqual([edited.body.data.createdAt, edited.body.data.authorId], [mine.createdAt, colleague.memberId]);
      const events = await outbox(mine.id);
      assert.deepEqual(
        events.map((e) => [e.eventType, e.actorId]),
        [
          ['comment.created', colleague.memberId],
          ['comment.updated', colleague.memberId],
        ],
      );
    });

    it('the author deletes, or a workspace administrator to moderate; anyone else is 403 forbidden; a deleted comment is 404 and unlisted', async () => {
      const owners = await comment('tasks', targets.taskId, 'Owner wrote this');
      assertProblem(await call('DELETE', `/v1/comments/${owners.id}`, colleague.token), 403, 'forbidden');
      assert.equal((await getComment(owners.id)).body, 'Owner wrote this');
      const theirs = await comment('tasks', targets.taskId, 'To be moderated', colleague.token);
      const moderated = await call('DELETE', `/v1/comments/${theirs.id}`, admin);
      assert.equal(moderated.status, 204);
      assert.equal(moderated.body, undefined);
      const own = await call('DELETE', `/v1/comments/${owners.id}`, admin);
      assert.equal(own.status, 204);
      for (const id of [theirs.id, owners.id]) {
        assertProblem(await call('GET', `/v1/comments/${id}`, admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/comments/${id}`, admin, { body: 'back' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/comments/${id}`, admin), 404, 'not_found');
        assert.ok(!(await commentsOf('tasks', targets.taskId)).some((x) => x.id === id));
      }
      const [deleted] = await outbox(theirs.id, 'comment.deleted');
      assert.deepEqual(
        (deleted?.payload as { comment: unknown }).comment,
        { id: theirs.id, targetType: 'tasks', targetId: targets.taskId, authorType: 'member', authorId: colleague.memberId },
        'the deletion event names the comment and its target, never its text',
      );
      assert.equal(deleted?.actorId, ownerMemberId, 'the moderator is the actor');
      assert.equal(await database.prisma.comment.count({ where: { workspaceId, id: theirs.id } }), 1, 'a deleted comment stays stored, archived');
    });

    it('takes no precondition, as the registry declares: concurrent edits on two instances all apply, the last writer wins', async () => {
      const c = await comment('tasks', targets.taskId);
      const noIfMatch = await call<{ data: Comment }>('PATCH', `/v1/comments/${c.id}`, admin, { body: 'No If-Match needed' });
      assert.equal(noIfMatch.status, 200);
      const stale = await call<{ data: Comment }>('PATCH', `/v1/comments/${c.id}`, admin, { body: 'An If-Match is not looked at' }, { 'if-match': '"1"' });
      assert.equal(stale.status, 200);
      const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => call<{ data: Comment }>('PATCH', `/v1/comments/${c.id}`, admin, { body: `writer ${i}` }, {}, i % 2 ? v1b : v1)));
      assert.deepEqual(
        replies.map((r) => r.status),
        [200, 200, 200, 200],
      );
      const now = await call<{ data: Comment }>('GET', `/v1/comments/${c.id}`, admin);
      assert.equal(now.headers.get('etag'), '"7"', 'every write is counted, none is lost');
      assert.ok(replies.some((r) => r.body.data.body === now.body.data.body));
      assert.equal((await outbox(c.id, 'comment.updated')).length, 6);
      assert.equal((await call('DELETE', `/v1/comments/${c.id}`, admin, undefined, { 'if-match': '"1"' })).status, 204);
    });
  });

  describe('service accounts', () => {
    it('comment within their grants: the target must be readable, creating needs a type-wide comment write grant', async () => {
      const scopes = [...COMMENT_SCOPES, 'tasks:read'];
      const sa = await cell.serviceAccount(scopes, [
        { resourceType: 'comment', resourceId: null, access: 'write' },
        { resourceType: 'task', resourceId: targets.taskId, access: 'read' },
      ]);
      const c = await comment('tasks', targets.taskId, 'From an integration', sa.token);
      assert.deepEqual([c.authorType, c.authorId], ['service-account', sa.serviceAccountId]);
      assert.deepEqual(
        (await outbox(c.id)).map((e) => [e.actorType, e.actorId]),
        [['service_account', sa.serviceAccountId]],
      );
      assert.equal((await call('PATCH', `/v1/comments/${c.id}`, sa.token, { body: 'Edited by the integration' })).status, 200);
      const otherTask = await created('/v1/tasks', { title: 'Not granted' });
      assertProblem(await call('POST', '/v1/comments', sa.token, { targetType: 'tasks', targetId: otherTask, body: 'x' }), 400, 'validation_failed', '/targetId');
      assertProblem(await call('GET', `/v1/comments?targetType=tasks&targetId=${otherTask}`, sa.token), 404, 'not_found');
      const onOther = await comment('tasks', otherTask);
      assertProblem(await call('GET', `/v1/comments/${onOther.id}`, sa.token), 404, 'not_found');
      const readOnly = await cell.serviceAccount(scopes, [
        { resourceType: 'comment', resourceId: null, access: 'read' },
        { resourceType: 'task', resourceId: null, access: 'read' },
      ]);
      assertProblem(await call('POST', '/v1/comments', readOnly.token, { targetType: 'tasks', targetId: targets.taskId, body: 'x' }), 403, 'insufficient_grant');
      assertProblem(await call('PATCH', `/v1/comments/${c.id}`, readOnly.token, { body: 'x' }), 403, 'insufficient_grant');
      assert.equal((await getComment(c.id, readOnly.token)).body, 'Edited by the integration');
      const oneComment = await cell.serviceAccount(scopes, [
        { resourceType: 'comment', resourceId: c.id, access: 'read' },
        { resourceType: 'task', resourceId: null, access: 'read' },
      ]);
      assert.deepEqual(
        (await commentsOf('tasks', targets.taskId, oneComment.token)).map((x) => x.id),
        [c.id],
        'lists show only granted comments',
      );
    });
  });

  describe('lists and keys', () => {
    it('pages one target’s comments with a cursor, oldest first, without gaps or repeats; a cursor is bound to its target', async () => {
      const taskId = await created('/v1/tasks', { title: 'Paged' });
      const made: Comment[] = [];
      for (let i = 0; i < 5; i++) made.push(await comment('tasks', taskId, `Page ${i}`));
      const first = await call<ListBody<Comment>>('GET', `/v1/comments?targetType=tasks&targetId=${taskId}&limit=2`, admin);
      assert.equal(first.status, 200);
      assert.deepEqual(
        first.body.data.map((c) => c.id),
        made.slice(0, 2).map((c) => c.id),
      );
      for (const item of first.body.data) assertShape('listComments', item);
      assert.ok(first.body.meta.nextCursor);
      const all = await listAllPages<Comment>(v1, `/v1/comments?targetType=tasks&targetId=${taskId}&limit=2`, admin);
      assert.deepEqual(
        all.map((c) => c.id),
        made.map((c) => c.id),
      );
      const elsewhere = await call('GET', `/v1/comments?targetType=tasks&targetId=${targets.taskId}&cursor=${first.body.meta.nextCursor}`, admin);
      assertProblem(elsewhere, 400, 'validation_failed');
      assert.equal(errorOf(elsewhere).source?.parameter, 'cursor');
      assert.equal((await call('GET', `/v1/comments?targetType=tasks&targetId=${taskId}&limit=201`, admin)).status, 400);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `comment-${randomUUID()}`;
      const body = { targetType: 'projects', targetId: targets.projectId, body: 'Once' };
      const first = await call<{ data: Comment }>('POST', '/v1/comments', admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Comment }>('POST', '/v1/comments', admin, body, { 'idempotency-key': key }, v1b);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.deepEqual(second.body, first.body);
      assert.equal(await database.prisma.comment.count({ where: { workspaceId, body: 'Once' } }), 1);
      assertProblem(await call('POST', '/v1/comments', admin, { ...body, body: 'Twice' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it("reaches the change feed only for readers of the target's type", async () => {
      const c = await comment('contacts', targets.contactId, 'Fed');
      const feed = async (scopes: string[]) => {
        const reply = await call<ListBody<{ resourceType: string; resourceId: string; action: string }>>('GET', '/v1/changes?types=comments&limit=200', await cell.mint(scopes));
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        return reply.body.data.filter((e) => e.resourceId === c.id).map((e) => e.action);
      };
      assert.deepEqual(await feed(['changes:read', 'comments:read', 'contacts:read']), ['created']);
      assert.deepEqual(await feed(['changes:read', 'comments:read', 'tasks:read', 'projects:read']), []);
    });
  });
});
