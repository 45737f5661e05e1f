import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 product groups end to end: scopes, tenancy, the hierarchy (ancestors, re-parenting, 409 hierarchy_cycle
 * that changes nothing, also under concurrent moves), parent validation with pointers, compare-and-set
 * updates, idempotent creates, archive/restore, pagination and the parent filter, outbox events and
 * resource grants.
 */

const env = useTestEnvironment();

type Group = { id: string; archivedAt: string | null; name: string; parentId: string | null; ancestorIds: string[]; version: string };

describe('v1 product groups', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  const other = { workspaceId: '', groupId: '' };
  let seq = 0;

  const createGroup = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Group }>('POST', '/v1/product-groups', token, { name: `Group ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getGroup = async (id: string) => (await call<{ data: Group }>('GET', `/v1/product-groups/${id}`, cell.admin)).body.data;
  const row = (id: string) => cell.database.prisma.productGroup.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
  const listAll = (path: string, token = cell.admin) => listAllPages<Group>(cell.v1, path, token);

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.groupId = (await cell.database.prisma.productGroup.create({ data: { workspaceId: other.workspaceId, name: 'Foreign group' } })).id;
  });

  it('every operation answers 403 insufficient_scope naming its scope to a credential without it; read cannot write', async () => {
    const id = randomUUID();
    const operations: [string, string, string][] = [
      ['GET', '/v1/product-groups', 'product-groups:read'],
      ['POST', '/v1/product-groups', 'product-groups:write'],
      ['GET', `/v1/product-groups/${id}`, 'product-groups:read'],
      ['PATCH', `/v1/product-groups/${id}`, 'product-groups:write'],
      ['DELETE', `/v1/product-groups/${id}`, 'product-groups:write'],
      ['POST', `/v1/product-groups/${id}/restore`, 'product-groups:write'],
    ];
    const token = await cell.mint(V1_SCOPES.filter((s) => !s.startsWith('product-groups:')));
    for (const [method, path, scope] of operations) {
      const reply = await call(method, path, token, method === 'POST' && !path.endsWith('/restore') ? { name: 'x' } : method === 'PATCH' ? { name: 'x', expectedVersion: '1' } : undefined);
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.equal(errorOf(reply).code, 'insufficient_scope');
      assert.match(errorOf(reply).detail, new RegExp(scope), `${method} ${path} names ${scope}`);
    }
    const reader = await cell.mint(['product-groups:read']);
    const g = await createGroup();
    assert.equal((await call('GET', `/v1/product-groups/${g.id}`, reader)).status, 200);
    assertProblem(await call('PATCH', `/v1/product-groups/${g.id}`, reader, { name: 'x', expectedVersion: '1' }), 403, 'insufficient_scope');
    assert.equal((await row(g.id)).revision, 1);
  });

  it('another workspace’s group answers like a missing one (404), is never changed or listed, and is no valid parent', async () => {
    for (const id of [other.groupId, randomUUID(), 'not-a-uuid']) {
      assertProblem(await call('GET', `/v1/product-groups/${id}`, cell.admin), 404, 'not_found');
      assertProblem(await call('PATCH', `/v1/product-groups/${id}`, cell.admin, { name: 'Hijacked', expectedVersion: '1' }), 404, 'not_found');
      assertProblem(await call('DELETE', `/v1/product-groups/${id}`, cell.admin), 404, 'not_found');
      assertProblem(await call('POST', `/v1/product-groups/${id}/restore`, cell.admin), 404, 'not_found');
    }
    assertProblem(await call('POST', '/v1/product-groups', cell.admin, { name: 'x', parentId: other.groupId }), 400, 'validation_failed', '/parentId');
    const foreign = await cell.database.prisma.productGroup.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.groupId } });
    assert.deepEqual([foreign.name, foreign.revision, foreign.archivedAt], ['Foreign group', 1, null]);
    assert.ok(!(await listAll('/v1/product-groups?limit=200')).some((g) => g.id === other.groupId));
    assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.groupId } }), 0);
  });

  it('creates roots and children with their ancestors (root first): 201, Location, ETag, product_group.created', async () => {
    const reply = await call<{ data: Group }>('POST', '/v1/product-groups', cell.admin, { name: ' Tools ' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const root = reply.body.data;
    assertShape('createProductGroup', root);
    assert.equal(reply.headers.get('location'), `/v1/product-groups/${root.id}`);
    assert.equal(reply.headers.get('etag'), '"1"');
    assert.deepEqual([root.name, root.parentId, root.ancestorIds, root.version], ['Tools', null, [], '1']);
    const child = await createGroup({ parentId: root.id.toUpperCase() });
    const grandchild = await createGroup({ parentId: child.id });
    assert.equal(child.parentId, root.id);
    assert.deepEqual(grandchild.ancestorIds, [root.id, child.id]);
    const got = await call<{ data: Group }>('GET', `/v1/product-groups/${grandchild.id}`, cell.admin);
    assertShape('getProductGroup', got.body.data);
    assert.deepEqual(got.body.data, grandchild);
    assert.deepEqual(
      (await cell.outbox(root.id)).map((e) => [e.eventType, e.aggregateType]),
      [['product_group.created', 'product_group']],
    );
  });

  it('refuses invalid bodies with 400 and a pointer and writes nothing', async () => {
    const archived = await createGroup();
    await call('DELETE', `/v1/product-groups/${archived.id}`, cell.admin);
    const before = await cell.database.prisma.productGroup.count({ where: { workspaceId: cell.workspaceId } });
    for (const [body, pointer] of [
      [{}, '/name'],
      [{ name: '  ' }, '/name'],
      [{ name: 'x'.repeat(201) }, '/name'],
      [{ name: 'x', parentId: randomUUID() }, '/parentId'],
      [{ name: 'x', parentId: archived.id }, '/parentId'],
      [{ name: 'x', parentId: 'nope' }, '/parentId'],
    ] as [Record<string, unknown>, string][]) {
      assertProblem(await call('POST', '/v1/product-groups', cell.admin, body), 400, 'validation_failed', pointer);
    }
    assertProblem(await call('POST', '/v1/product-groups', cell.admin, { name: 'x', colour: 'red' }), 400, 'validation_failed');
    assert.equal(await cell.database.prisma.productGroup.count({ where: { workspaceId: cell.workspaceId } }), before);
  });

  it('moving a group under itself or one of its descendants is 409 hierarchy_cycle and changes nothing', async () => {
    const a = await createGroup();
    const b = await createGroup({ parentId: a.id });
    const c = await createGroup({ parentId: b.id });
    for (const parentId of [a.id, b.id, c.id]) {
      assertProblem(await call('PATCH', `/v1/product-groups/${a.id}`, cell.admin, { parentId, name: 'Renamed', expectedVersion: a.version }), 409, 'hierarchy_cycle', '/parentId');
    }
    assertProblem(await call('PATCH', `/v1/product-groups/${b.id}`, cell.admin, { parentId: c.id, expectedVersion: b.version }), 409, 'hierarchy_cycle');
    assert.deepEqual(await getGroup(a.id), a);
    assert.deepEqual(await getGroup(b.id), b);
    assert.deepEqual(
      (await cell.outbox(a.id)).map((e) => e.eventType),
      ['product_group.created'],
    );

    const moved = await call<{ data: Group }>('PATCH', `/v1/product-groups/${c.id}`, cell.admin, { parentId: a.id, expectedVersion: c.version });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assertShape('updateProductGroup', moved.body.data);
    assert.deepEqual(moved.body.data.ancestorIds, [a.id]);
    assert.deepEqual(
      (await cell.outbox(c.id)).map((e) => e.eventType),
      ['product_group.created', 'product_group.moved'],
    );
    const root = await call<{ data: Group }>('PATCH', `/v1/product-groups/${c.id}`, cell.admin, { parentId: null, name: 'Root again', expectedVersion: moved.body.data.version });
    assert.deepEqual([root.body.data.parentId, root.body.data.ancestorIds, root.body.data.name], [null, [], 'Root again']);
    assert.deepEqual(
      (await cell.outbox(c.id)).map((e) => e.eventType),
      ['product_group.created', 'product_group.moved', 'product_group.moved', 'product_group.updated'],
    );
  });

  it('two concurrent moves that together would form a cycle never both succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const x = await createGroup();
      const y = await createGroup();
      const [first, second] = await Promise.all([
        call('PATCH', `/v1/product-groups/${x.id}`, cell.admin, { parentId: y.id, expectedVersion: '1' }, {}, cell.v1),
        call('PATCH', `/v1/product-groups/${y.id}`, cell.admin, { parentId: x.id, expectedVersion: '1' }, {}, cell.v1b),
      ]);
      assert.deepEqual([first.status, second.status].sort(), [200, 409]);
      const rows = [await row(x.id), await row(y.id)];
      assert.equal(rows.filter((r) => r.parentId !== null).length, 1);
    }
  });

  it('updates are compare-and-set: stale is 409 version_conflict, missing expectedVersion or nothing to change is 400', async () => {
    const g = await createGroup();
    const renamed = await call<{ data: Group }>('PATCH', `/v1/product-groups/${g.id}`, cell.admin, { name: 'Renamed', expectedVersion: g.version });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.headers.get('etag'), '"2"');
    assertProblem(await call('PATCH', `/v1/product-groups/${g.id}`, cell.admin, { name: 'Stale', expectedVersion: g.version }), 409, 'version_conflict');
    assertProblem(await call('PATCH', `/v1/product-groups/${g.id}`, cell.admin, { name: 'x' }), 400, 'validation_failed', '/expectedVersion');
    assertProblem(await call('PATCH', `/v1/product-groups/${g.id}`, cell.admin, { expectedVersion: '2' }), 400, 'validation_failed');
    assertProblem(await call('PATCH', `/v1/product-groups/${g.id}`, cell.admin, { name: '', expectedVersion: '2' }), 400, 'validation_failed', '/name');
    assertProblem(await call('PATCH', `/v1/product-groups/${g.id}`, cell.admin, { parentId: randomUUID(), expectedVersion: '2' }), 400, 'validation_failed', '/parentId');
    assert.equal((await row(g.id)).revision, 2);
    assert.deepEqual(
      (await cell.outbox(g.id)).map((e) => e.eventType),
      ['product_group.created', 'product_group.updated'],
    );
  });

  it('replays an idempotent create with the same key and creates once', async () => {
    const key = `pg-${randomUUID()}`;
    const first = await call<{ data: Group }>('POST', '/v1/product-groups', cell.admin, { name: 'Idempotent group' }, { 'idempotency-key': key });
    const second = await call<{ data: Group }>('POST', '/v1/product-groups', cell.admin, { name: 'Idempotent group' }, { 'idempotency-key': key });
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('idempotency-replayed'), 'true');
    assert.equal(second.body.data.id, first.body.data.id);
    assert.equal(await cell.database.prisma.productGroup.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent group' } }), 1);
    assertProblem(await call('POST', '/v1/product-groups', cell.admin, { name: 'Other' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
  });

  it('archive never deletes (children stay); restore brings it back; lists filter by parent and page without repeats', async () => {
    const parent = await createGroup();
    const kids: Group[] = [];
    for (let i = 0; i < 3; i++) kids.push(await createGroup({ parentId: parent.id }));
    assert.deepEqual(
      (await listAll(`/v1/product-groups?parentId=${parent.id}&limit=1`)).map((g) => g.id),
      kids.map((k) => k.id),
    );
    assert.deepEqual(await listAll(`/v1/product-groups?parentId=${randomUUID()}`), []);
    assert.deepEqual(await listAll('/v1/product-groups?parentId=nope'), []);
    assert.equal((await call('DELETE', `/v1/product-groups/${parent.id}`, cell.admin)).status, 204);
    assert.equal((await call('DELETE', `/v1/product-groups/${parent.id}`, cell.admin)).status, 204);
    const all = await listAll('/v1/product-groups?limit=2');
    assert.ok(!all.some((g) => g.id === parent.id));
    assert.ok(
      kids.every((k) => all.some((g) => g.id === k.id)),
      'children stay',
    );
    assert.equal(new Set(all.map((g) => g.id)).size, all.length);
    assert.deepEqual(
      all.map((g) => g.id),
      [...all.map((g) => g.id)].sort(),
    );
    assert.ok((await getGroup(parent.id)).archivedAt);
    const restored = await call<{ data: Group }>('POST', `/v1/product-groups/${parent.id}/restore`, cell.admin);
    assert.equal(restored.status, 200);
    assertShape('restoreProductGroup', restored.body.data);
    assert.equal(restored.body.data.archivedAt, null);
    assert.equal((await call('POST', `/v1/product-groups/${parent.id}/restore`, cell.admin)).status, 200);
    assert.deepEqual(
      (await cell.outbox(parent.id)).map((e) => e.eventType),
      ['product_group.created', 'product_group.archived', 'product_group.restored'],
    );
    const page = await call<ListBody<Group>>('GET', '/v1/product-groups?limit=1', cell.admin);
    for (const g of page.body.data) assertShape('listProductGroups', g);
    assertProblem(await call('GET', `/v1/product-groups?parentId=${parent.id}&cursor=${page.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
    assert.equal((await call('GET', '/v1/product-groups?limit=0', cell.admin)).status, 400);
  });

  it('resource grants: a service account sees only granted groups; read cannot write; creating needs a type-wide write grant', async () => {
    const a = await createGroup();
    const b = await createGroup();
    const { token } = await cell.serviceAccount(['product-groups:read', 'product-groups:write'], [{ resourceType: 'product_group', resourceId: a.id, access: 'read' }]);
    assert.equal((await call('GET', `/v1/product-groups/${a.id}`, token)).status, 200);
    assertProblem(await call('GET', `/v1/product-groups/${b.id}`, token), 404, 'not_found');
    assert.deepEqual(
      (await listAll('/v1/product-groups?limit=200', token)).map((g) => g.id),
      [a.id],
    );
    assertProblem(await call('PATCH', `/v1/product-groups/${a.id}`, token, { name: 'x', expectedVersion: '1' }), 403, 'insufficient_grant');
    assertProblem(await call('DELETE', `/v1/product-groups/${a.id}`, token), 403, 'insufficient_grant');
    assertProblem(await call('POST', `/v1/product-groups/${a.id}/restore`, token), 403, 'insufficient_grant');
    assertProblem(await call('POST', '/v1/product-groups', token, { name: 'x' }), 403, 'insufficient_grant');
    assert.equal((await row(a.id)).revision, 1);
    const writer = await cell.serviceAccount(['product-groups:read', 'product-groups:write'], [{ resourceType: 'product_group', resourceId: null, access: 'write' }]);
    const child = await call<{ data: Group }>('POST', '/v1/product-groups', writer.token, { name: 'By SA', parentId: a.id });
    assert.equal(child.status, 201, JSON.stringify(child.body));
    const one = await cell.serviceAccount(['product-groups:read', 'product-groups:write'], [{ resourceType: 'product_group', resourceId: b.id, access: 'write' }]);
    assertProblem(await call('PATCH', `/v1/product-groups/${b.id}`, one.token, { parentId: a.id, expectedVersion: '1' }), 400, 'validation_failed', '/parentId');
    assert.equal((await call('PATCH', `/v1/product-groups/${b.id}`, one.token, { name: 'Renamed by SA', expectedVersion: '1' })).status, 200);
  });
});
