import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { JobQueues } from '@workcell/jobs';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { callApi, errorOf, type ErrorItem, type ListBody, type Reply } from './support/v1.js';

/**
 * Asynchronous project lifecycle (issue 6), end to end against the running auth, worker and api-v1: the four
 * transitions (202 + Location, polled to succeeded, project state/revision and outbox events), If-Match
 * preconditions, invalid transitions and one active operation per project (409), the scope, tenancy, a job
 * that fails after its attempts (failed, with the reason, visible through GET) and list pagination.
 */

const env = useTestEnvironment();

type Project = { id: string; status: string; completedAt: string | null; archivedAt: string | null; revision: string };
type Operation = {
  id: string;
  kind: string;
  status: string;
  resourceType: string;
  resourceId: string;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  error: ErrorItem | null;
};

describe('v1 project lifecycle', () => {
  const cell = useV1Cell(env);
  const { mint } = cell;
  const other = { workspaceId: '', projectId: '', operationId: '' };
  let seq = 0;

  /** A bodiless request (every lifecycle call is one); headers come fourth. */
  const call = <T = unknown>(method: string, path: string, token: string, headers: Record<string, string> = {}): Promise<Reply<T>> => callApi<T>(cell.v1, method, path, token, undefined, headers);
  const create = async () => {
    const reply = await callApi<{ data: Project }>(cell.v1, 'POST', '/v1/projects', cell.admin, { name: `Project ${++seq}` });
    assert.equal(reply.status, 201);
    return reply.body.data;
  };
  const getProject = async (id: string) => (await call<{ data: Project }>('GET', `/v1/projects/${id}`, cell.admin)).body.data;
  type Kind = 'complete' | 'reopen' | 'archive' | 'restore';
  const ACTIONS: Record<Kind, (id: string) => [string, string]> = {
    complete: (id: string) => ['POST', `/v1/projects/${id}/complete`],
    reopen: (id: string) => ['POST', `/v1/projects/${id}/reopen`],
    archive: (id: string) => ['DELETE', `/v1/projects/${id}`],
    restore: (id: string) => ['POST', `/v1/projects/${id}/restore`],
  };
  const request = (kind: Kind, id: string, headers: Record<string, string>, token = cell.admin) => {
    const [method, path] = ACTIONS[kind](id);
    return call<{ data: Operation }>(method, path, token, headers);
  };
  async function poll(location: string, timeoutMs = 20_000): Promise<Operation> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await call<{ data: Operation }>('GET', location, cell.admin);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      if (reply.body.data.status === 'succeeded' || reply.body.data.status === 'failed') return reply.body.data;
      assert.ok(Date.now() < deadline, `operation still ${reply.body.data.status} at ${location}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** Requests a transition with the project's current ETag and waits for it to succeed. */
  async function transition(kind: Kind, id: string): Promise<Operation> {
    const before = await getProject(id);
    const reply = await request(kind, id, { 'if-match': `"${before.revision}"` });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    const location = reply.headers.get('location');
    assert.equal(location, `/v1/projects/${id}/lifecycle-operations/${reply.body.data.id}`);
    const done = await poll(location!);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    return done;
  }
  const outboxCount = (aggregateId: string, eventType: string) => cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, aggregateId, eventType } });

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign' } })).id;
    other.operationId = (
      await cell.database.prisma.projectLifecycleOperation.create({ data: { workspaceId: other.workspaceId, projectId: other.projectId, kind: 'complete', status: 'succeeded' } })
    ).id;
  });

  it('runs complete, reopen, archive and restore: 202 + Location, polled to succeeded, state, revision and events', async () => {
    const p = await create();
    assert.equal(p.revision, '1');

    const accepted = await request('complete', p.id, { 'if-match': '"1"' });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const op = accepted.body.data;
    assert.equal(op.kind, 'project.complete');
    assert.equal(op.resourceType, 'project');
    assert.equal(op.resourceId, p.id);
    assert.ok(['pending', 'running', 'succeeded'].includes(op.status), op.status);
    assert.equal(accepted.headers.get('location'), `/v1/projects/${p.id}/lifecycle-operations/${op.id}`);
    const done = await poll(accepted.headers.get('location')!);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.error, null);
    assert.ok(done.completedAt);
    let now = await getProject(p.id);
    assert.equal(now.status, 'completed');
    assert.ok(now.completedAt);
    assert.equal(now.revision, '2');
    assert.equal(await outboxCount(p.id, 'project.lifecycle_requested'), 1);
    assert.equal(await outboxCount(p.id, 'project.completed'), 1);

    await transition('reopen', p.id);
    now = await getProject(p.id);
    assert.deepEqual([now.status, now.completedAt, now.revision], ['active', null, '3']);
    assert.equal(await outboxCount(p.id, 'project.reopened'), 1);

    await transition('archive', p.id);
    now = await getProject(p.id);
    assert.equal(now.status, 'archived');
    assert.ok(now.archivedAt);
    assert.equal(now.revision, '4');
    assert.equal(await outboxCount(p.id, 'project.archived'), 1);

    await transition('restore', p.id);
    now = await getProject(p.id);
    assert.deepEqual([now.status, now.archivedAt, now.revision], ['active', null, '5']);
    assert.equal(await outboxCount(p.id, 'project.restored'), 1);
    assert.equal(await outboxCount(p.id, 'project.lifecycle_requested'), 4);
  });

  it('checks If-Match: missing 428, malformed 400, stale 412; nothing is recorded', async () => {
    const p = await create();
    const missing = await request('complete', p.id, {});
    assert.equal(missing.status, 428);
    assert.equal(errorOf(missing).code, 'precondition_required');
    for (const value of ['W/"1"', '*', '"1", "2"', '1']) {
      const bad = await request('complete', p.id, { 'if-match': value });
      assert.equal(bad.status, 400, value);
      assert.equal(errorOf(bad).code, 'invalid_precondition');
    }
    const stale = await request('archive', p.id, { 'if-match': '"7"' });
    assert.equal(stale.status, 412);
    assert.equal(errorOf(stale).code, 'precondition_failed');
    assert.equal(await cell.database.prisma.projectLifecycleOperation.count({ where: { workspaceId: cell.workspaceId, projectId: p.id } }), 0);
  });

  it('refuses a transition the project state does not allow with 409', async () => {
    const p = await create();
    for (const kind of ['reopen', 'restore'] as const) {
      const reply = await request(kind, p.id, { 'if-match': '"1"' });
      assert.equal(reply.status, 409, kind);
      assert.equal(errorOf(reply).code, 'conflict');
    }
    await transition('complete', p.id);
    const again = await request('complete', p.id, { 'if-match': '"2"' });
    assert.equal(again.status, 409);
    assert.equal(await cell.database.prisma.projectLifecycleOperation.count({ where: { workspaceId: cell.workspaceId, projectId: p.id } }), 1);
  });

  it('allows one active operation per project: a second request while one is queued is 409', async () => {
    const p = await create();
    // An operation queued with no job yet stands for one the worker has not picked up.
    const active = await cell.database.prisma.projectLifecycleOperation.create({ data: { workspaceId: cell.workspaceId, projectId: p.id, kind: 'archive' } });
    const second = await request('complete', p.id, { 'if-match': '"1"' });
    assert.equal(second.status, 409);
    assert.match(errorOf(second).detail, /queued or running/);
    await cell.database.prisma.projectLifecycleOperation.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: active.id } }, data: { status: 'failed' } });
    await transition('complete', p.id);
  });

  it('requires projects:lifecycle (projects:write alone is 403) for requests and reads', async () => {
    const p = await create();
    const writer = await mint(['projects:read', 'projects:write']);
    const reply = await request('complete', p.id, { 'if-match': '"1"' }, writer);
    assert.equal(reply.status, 403);
    assert.equal(errorOf(reply).code, 'insufficient_scope');
    assert.equal((await call('GET', `/v1/projects/${p.id}/lifecycle-operations`, writer)).status, 403);
    const lifecycleOnly = await mint(['projects:lifecycle']);
    const ok = await request('complete', p.id, { 'if-match': '"1"' }, lifecycleOnly);
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    assert.equal((await poll(ok.headers.get('location')!)).status, 'succeeded');
  });

  it("answers 404 for another workspace's project and operations, and for unknown ids", async () => {
    const foreign = await request('archive', other.projectId, { 'if-match': '"1"' });
    assert.equal(foreign.status, 404);
    assert.equal(errorOf(foreign).code, 'not_found');
    assert.equal((await call('GET', `/v1/projects/${other.projectId}/lifecycle-operations/${other.operationId}`, cell.admin)).status, 404);
    assert.equal((await call('GET', `/v1/projects/${other.projectId}/lifecycle-operations`, cell.admin)).status, 404);
    const mine = await create();
    assert.equal((await call('GET', `/v1/projects/${mine.id}/lifecycle-operations/${other.operationId}`, cell.admin)).status, 404);
    assert.equal((await call('GET', `/v1/projects/${mine.id}/lifecycle-operations/${randomUUID()}`, cell.admin)).status, 404);
    assert.equal((await request('complete', randomUUID(), { 'if-match': '"1"' })).status, 404);
    const row = await cell.database.prisma.project.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: other.projectId } } });
    assert.equal(row.archivedAt, null);
  });

  it('ends a job whose transition became impossible as failed at once (no retries), with the reason, visible through GET', async () => {
    const p = await create();
    // The transition became impossible between the request and its execution: reopen an active project.
    const op = await cell.database.prisma.projectLifecycleOperation.create({ data: { workspaceId: cell.workspaceId, projectId: p.id, kind: 'reopen' } });
    const queues = new JobQueues(cell.config);
    try {
      const jobId = await queues.enqueue('projects.lifecycle', { workspaceId: cell.workspaceId, operationId: op.id });
      assert.equal(jobId, op.id);
      const done = await poll(`/v1/projects/${p.id}/lifecycle-operations/${op.id}`, 30_000);
      assert.equal(done.status, 'failed');
      assert.equal(done.error?.code, 'conflict');
      assert.equal(done.error?.status, '409');
      assert.ok(done.completedAt);
      const job = await queues.queue('projects').getJob(op.id);
      assert.equal(job?.attemptsMade, 1, 'a permanent failure is not retried');
      assert.equal(await job?.getState(), 'failed');
    } finally {
      await queues.close();
    }
    const now = await getProject(p.id);
    assert.deepEqual([now.status, now.revision], ['active', '1']);
    assert.equal(await outboxCount(p.id, 'project.lifecycle_failed'), 1);
    // A failed operation frees the project.
    await transition('complete', p.id);
  });

  it('lists the operations of a project in creation order, cursor-paged', async () => {
    const p = await create();
    const ids = [(await transition('complete', p.id)).id, (await transition('reopen', p.id)).id, (await transition('archive', p.id)).id];
    const first = await call<ListBody<Operation>>('GET', `/v1/projects/${p.id}/lifecycle-operations?limit=2`, cell.admin);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      first.body.data.map((o) => o.id),
      ids.slice(0, 2),
    );
    assert.ok(first.body.meta.nextCursor);
    assert.ok(first.body.links.next);
    const second = await call<ListBody<Operation>>('GET', first.body.links.next!, cell.admin);
    assert.deepEqual(
      second.body.data.map((o) => [o.id, o.kind, o.status]),
      [[ids[2], 'project.archive', 'succeeded']],
    );
    assert.equal(second.body.meta.nextCursor, null);
    const tampered = await call('GET', `/v1/projects/${p.id}/lifecycle-operations?cursor=nope`, cell.admin);
    assert.equal(tampered.status, 400);
  });
});
