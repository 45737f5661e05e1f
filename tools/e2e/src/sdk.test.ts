import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { WorkcellApiError, WorkcellClient } from '@workcell/sdk';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';

/** The official client against the running services: envelope, pagination, If-Match, idempotency and errors. */

const env = useTestEnvironment();

describe('@workcell/sdk against a running cell', () => {
  let cell: V1Cell;
  let api: WorkcellClient;

  beforeAll(async () => {
    cell = await startV1Cell(env);
    api = new WorkcellClient({ credential: await cell.mint(V1_SCOPES), baseUrl: cell.v1.url });
  });
  afterAll(() => cell?.close());

  it('creates with an Idempotency-Key of its own and pages through a list', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await api.call('createTag', { body: { name: `sdk ${i}` } })).data.id);
    const seen: string[] = [];
    for await (const tag of api.paginate('listTags', { query: { limit: 2 } })) seen.push(tag.id);
    for (const id of created) assert.ok(seen.includes(id));
    assert.equal(new Set(seen).size, seen.length, 'no duplicates across pages');
    const key = `sdk-${Date.now()}`;
    const first = await api.call('createTag', { body: { name: 'once' }, idempotencyKey: key });
    const replay = await api.call('createTag', { body: { name: 'once' }, idempotencyKey: key });
    assert.equal(replay.replayed, true);
    assert.equal(replay.data.id, first.data.id);
  });

  it('updates with the ETag it read, and surfaces a stale one as precondition_failed', async () => {
    const task = (await api.call('createTask', { body: { title: 'sdk task' } })).data;
    const read = await api.call('getTask', { path: { id: task.id } });
    assert.ok(read.etag);
    const updated = await api.call('updateTask', { path: { id: task.id }, ifMatch: read.etag, body: { title: 'renamed' } });
    assert.equal(updated.data.title, 'renamed');
    await assert.rejects(api.call('updateTask', { path: { id: task.id }, ifMatch: read.etag, body: { title: 'stale' } }), (error: WorkcellApiError) => {
      assert.equal(error.status, 412);
      assert.equal(error.code, 'precondition_failed');
      assert.ok(error.requestId);
      return true;
    });
  });

  it('reports scope and tenancy errors with the error document’s codes, and the rate-limit state', async () => {
    const reader = new WorkcellClient({ credential: await cell.mint(['tags:read']), baseUrl: cell.v1.url });
    await assert.rejects(reader.call('createTag', { body: { name: 'x' } }), (error: WorkcellApiError) => error.status === 403 && error.code === 'insufficient_scope');
    await assert.rejects(reader.call('getTag', { path: { id: '01a1fc94-97ea-7433-a1ba-8714884845a1' } }), (error: WorkcellApiError) => error.code === 'not_found');
    const workspace = await reader.call('getWorkspaceCapabilities').catch((error: unknown) => error);
    assert.ok(workspace instanceof WorkcellApiError && workspace.code === 'insufficient_scope');
    const ok = await reader.call('listTags');
    assert.ok(ok.rateLimit && ok.rateLimit.limit > 0);
  });
});
