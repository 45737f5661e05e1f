import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { getV1Operation } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 products end to end: scopes, the products:finance overlay on purchasePrice (reads omit it, writes that
 * supply it need products:finance:write and write nothing otherwise, events never carry it), tenancy,
 * validation with JSON pointers, compare-and-set updates, product-group references, idempotent creates,
 * archive/restore, pagination and filtering, outbox events and resource grants.
 */

const env = useTestEnvironment();

type Money = { amount: string; currency: string };
type Product = {
  id: string;
  archivedAt: string | null;
  name: string;
  description: string | null;
  sku: string | null;
  unit: string;
  salesPrice: Money | null;
  purchasePrice?: Money | null;
  productGroupId: string | null;
  version: string;
};

const BASE = ['products:read', 'products:write'];
const NO_FINANCE = V1_SCOPES.filter((s) => !s.startsWith('products:finance:'));

/** The registry's Product without the finance overlay: every other field, parsed by the schema. */
function assertNonFinanceShape(operationId: string, data: unknown): void {
  const response = getV1Operation(operationId).response as unknown as { schema: { shape: Record<string, unknown>; safeParse(v: unknown): { success: boolean } } };
  assert.ok(response.schema.safeParse(data).success, operationId);
  assert.deepEqual(
    Object.keys(data as object).sort(),
    Object.keys(response.schema.shape)
      .filter((k) => k !== 'purchasePrice')
      .sort(),
    operationId,
  );
}

describe('v1 products', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  let plain: string;
  const other = { workspaceId: '', productId: '', groupId: '' };
  let seq = 0;

  const createProduct = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Product }>('POST', '/v1/products', token, { name: `Product ${++seq}`, unit: 'piece', ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const createGroup = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: { id: string } }>('POST', '/v1/product-groups', cell.admin, { name: `Group ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getProduct = async (id: string, token = cell.admin) => (await call<{ data: Product }>('GET', `/v1/products/${id}`, token)).body.data;
  const row = (id: string) => cell.database.prisma.product.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
  const listAll = (path: string, token = cell.admin) => listAllPages<Product>(cell.v1, path, token);

  beforeAll(async () => {
    plain = await cell.mint(NO_FINANCE);
    other.workspaceId = await cell.otherWorkspace();
    other.groupId = (await cell.database.prisma.productGroup.create({ data: { workspaceId: other.workspaceId, name: 'Foreign group' } })).id;
    other.productId = (await cell.database.prisma.product.create({ data: { workspaceId: other.workspaceId, name: 'Foreign product', unit: 'kg' } })).id;
  });

  describe('scopes', () => {
    it('finance scopes never grant base access alone', async () => {
      const p = await createProduct();
      const financeOnly = await cell.mint(['products:finance:read', 'products:finance:write']);
      assertProblem(await call('GET', `/v1/products/${p.id}`, financeOnly), 403, 'insufficient_scope');
      assertProblem(await call('GET', '/v1/products', financeOnly), 403, 'insufficient_scope');
      assertProblem(await call('POST', '/v1/products', financeOnly, { name: 'x', unit: 'x', purchasePrice: { amount: '1', currency: 'EUR' } }), 403, 'insufficient_scope');
      const reader = await cell.mint(['products:read', 'products:finance:write']);
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, reader, { purchasePrice: null, expectedVersion: p.version }), 403, 'insufficient_scope');
      assert.equal((await row(p.id)).revision, 1);
    });

    it('products:read reads but does not write', async () => {
      const reader = await cell.mint(['products:read']);
      const p = await createProduct();
      assert.equal((await call('GET', `/v1/products/${p.id}`, reader)).status, 200);
      assert.equal((await call('GET', '/v1/products', reader)).status, 200);
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, reader, { name: 'x', expectedVersion: p.version }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `/v1/products/${p.id}`, reader), 403, 'insufficient_scope');
      assert.equal((await row(p.id)).revision, 1);
    });
  });

  describe('finance overlay (purchasePrice)', () => {
    it('is shown only with products:finance:read, on get, list, create, update and restore', async () => {
      const created = await call<{ data: Product }>('POST', '/v1/products', cell.admin, {
        name: 'Drill',
        unit: 'piece',
        salesPrice: { amount: '99.90', currency: 'EUR' },
        purchasePrice: { amount: '41.5', currency: 'USD' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assertShape('createProduct', created.body.data);
      const p = created.body.data;
      assert.deepEqual(p.purchasePrice, { amount: '41.5', currency: 'USD' });
      assert.deepEqual(p.salesPrice, { amount: '99.9', currency: 'EUR' });
      assertShape('getProduct', await getProduct(p.id));

      const seen = await getProduct(p.id, plain);
      assertNonFinanceShape('getProduct', seen);
      assert.ok(!('purchasePrice' in seen));
      const { purchasePrice: _hidden, ...rest } = await getProduct(p.id);
      assert.deepEqual(seen, rest);
      const listed = (await listAll('/v1/products?limit=200', plain)).find((x) => x.id === p.id);
      assert.ok(listed && !('purchasePrice' in listed));
      const listedFinance = (await listAll('/v1/products?limit=200')).find((x) => x.id === p.id);
      assert.deepEqual(listedFinance?.purchasePrice, { amount: '41.5', currency: 'USD' });

      const viaPlain = await call<{ data: Product }>('POST', '/v1/products', plain, { name: 'Plain', unit: 'h' });
      assert.equal(viaPlain.status, 201);
      assertNonFinanceShape('createProduct', viaPlain.body.data);
      const updated = await call<{ data: Product }>('PATCH', `/v1/products/${p.id}`, plain, { name: 'Drill 2', expectedVersion: p.version });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assertNonFinanceShape('updateProduct', updated.body.data);
      assert.equal((await call('DELETE', `/v1/products/${p.id}`, plain)).status, 204);
      const restored = await call<{ data: Product }>('POST', `/v1/products/${p.id}/restore`, plain);
      assert.equal(restored.status, 200);
      assertNonFinanceShape('restoreProduct', restored.body.data);
      const restoredAgain = await call<{ data: Product }>('POST', `/v1/products/${p.id}/restore`, cell.admin);
      assert.deepEqual(restoredAgain.body.data.purchasePrice, { amount: '41.5', currency: 'USD' });
      assert.equal((await row(p.id)).purchasePrice?.toString(), '41.5', 'a non-finance write leaves purchasePrice alone');
    });

    it('a write that supplies purchasePrice without products:finance:write is 403 naming the scope and writes nothing', async () => {
      const readsFinance = await cell.mint([...BASE, 'products:finance:read']);
      const before = await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId } });
      for (const token of [plain, readsFinance]) {
        for (const purchasePrice of [{ amount: '5', currency: 'EUR' }, null]) {
          const reply = await call('POST', '/v1/products', token, { name: 'Sneaky', unit: 'x', purchasePrice });
          assertProblem(reply, 403, 'insufficient_scope');
          assert.match(errorOf(reply).detail, /products:finance:write/);
        }
      }
      assert.equal(await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId } }), before);
      const p = await createProduct({ purchasePrice: { amount: '10', currency: 'EUR' } });
      for (const purchasePrice of [{ amount: '1', currency: 'EUR' }, null]) {
        const reply = await call('PATCH', `/v1/products/${p.id}`, readsFinance, { name: 'Changed', purchasePrice, expectedVersion: p.version });
        assertProblem(reply, 403, 'insufficient_scope');
        assert.match(errorOf(reply).detail, /products:finance:write/);
      }
      const stored = await row(p.id);
      assert.deepEqual([stored.name, stored.purchasePrice?.toString(), stored.revision], [p.name, '10', 1]);
      assert.deepEqual(
        (await cell.outbox(p.id)).map((e) => e.eventType),
        ['product.created'],
      );
    });

    it('products:finance:write writes purchasePrice; without finance:read the response still omits it', async () => {
      const writer = await cell.mint([...BASE, 'products:finance:write']);
      const reply = await call<{ data: Product }>('POST', '/v1/products', writer, { name: 'Blind', unit: 'x', purchasePrice: { amount: '123456789012345.123456', currency: 'CHF' } });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.ok(!('purchasePrice' in reply.body.data));
      assert.deepEqual((await getProduct(reply.body.data.id)).purchasePrice, { amount: '123456789012345.123456', currency: 'CHF' }, 'stored exactly');
      const cleared = await call<{ data: Product }>('PATCH', `/v1/products/${reply.body.data.id}`, writer, { purchasePrice: null, expectedVersion: '1' });
      assert.equal(cleared.status, 200);
      assert.equal((await getProduct(reply.body.data.id)).purchasePrice, null);
    });

    it('outbox events never carry purchasePrice', async () => {
      const p = await createProduct({ purchasePrice: { amount: '7.77', currency: 'EUR' }, salesPrice: { amount: '9', currency: 'EUR' } });
      await call('PATCH', `/v1/products/${p.id}`, cell.admin, { purchasePrice: { amount: '8.88', currency: 'EUR' }, expectedVersion: p.version });
      await call('DELETE', `/v1/products/${p.id}`, cell.admin);
      await call('POST', `/v1/products/${p.id}/restore`, cell.admin);
      const events = await cell.outbox(p.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['product.created', 'product.updated', 'product.archived', 'product.restored'],
      );
      for (const e of events) {
        const text = JSON.stringify(e.payload);
        // The amounts as JSON strings (quoted): bare, `8.88` also matches a timestamp such as `…T17:51:38.880Z`.
        assert.ok(!text.includes('purchasePrice') && !text.includes('"7.77"') && !text.includes('"8.88"'), text);
      }
      assert.deepEqual((events[0]!.payload as { product: { salesPrice: Money } }).product.salesPrice, { amount: '9', currency: 'EUR' });
      assert.deepEqual((events[1]!.payload as { changed: string[] }).changed, [], 'not even the name of the finance attribute');
    });
  });

  describe('tenancy', () => {
    it('another workspace’s product answers like a missing one (404) and is never changed or listed', async () => {
      for (const id of [other.productId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/products/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/products/${id}`, cell.admin, { name: 'Hijacked', expectedVersion: '1' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/products/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/products/${id}/restore`, cell.admin), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.product.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.productId } });
      assert.deepEqual([foreign.name, foreign.revision, foreign.archivedAt], ['Foreign product', 1, null]);
      assert.ok(!(await listAll('/v1/products?limit=200')).some((p) => p.id === other.productId));
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.productId } }), 0);
    });
  });

  describe('products', () => {
    it('creates a product: 201, Location, ETag, defaults and product.created', async () => {
      const reply = await call<{ data: Product }>('POST', '/v1/products', cell.admin, { name: '  Cable ', unit: 'm' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const p = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/products/${p.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createProduct', p);
      assert.deepEqual([p.name, p.unit, p.description, p.sku, p.salesPrice, p.purchasePrice, p.productGroupId, p.version], ['Cable', 'm', null, null, null, null, null, '1']);
      assert.deepEqual(
        (await cell.outbox(p.id)).map((e) => [e.eventType, e.aggregateType]),
        [['product.created', 'product']],
      );
      const got = await call<{ data: Product }>('GET', `/v1/products/${p.id}`, cell.admin);
      assert.equal(got.headers.get('etag'), '"1"');
      assert.deepEqual(got.body.data, p);
    });

    it('refuses invalid bodies with 400 and a pointer and writes nothing', async () => {
      const archivedGroup = await createGroup();
      await call('DELETE', `/v1/product-groups/${archivedGroup.id}`, cell.admin);
      const before = await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId } });
      const cases: [Record<string, unknown>, string][] = [
        [{ unit: 'x' }, '/name'],
        [{ name: 'x' }, '/unit'],
        [{ name: ' ', unit: 'x' }, '/name'],
        [{ name: 'x'.repeat(201), unit: 'x' }, '/name'],
        [{ name: 'x', unit: 'x', sku: 'x'.repeat(101) }, '/sku'],
        [{ name: 'x', unit: 'x', salesPrice: { amount: '1.2345678', currency: 'EUR' } }, '/salesPrice/amount'],
        [{ name: 'x', unit: 'x', salesPrice: { amount: '-1', currency: 'EUR' } }, '/salesPrice/amount'],
        [{ name: 'x', unit: 'x', salesPrice: { amount: 1, currency: 'EUR' } }, '/salesPrice/amount'],
        [{ name: 'x', unit: 'x', salesPrice: { amount: '1', currency: 'eur' } }, '/salesPrice/currency'],
        [{ name: 'x', unit: 'x', purchasePrice: { amount: '1' } }, '/purchasePrice/currency'],
        [{ name: 'x', unit: 'x', productGroupId: randomUUID() }, '/productGroupId'],
        [{ name: 'x', unit: 'x', productGroupId: other.groupId }, '/productGroupId'],
        [{ name: 'x', unit: 'x', productGroupId: archivedGroup.id }, '/productGroupId'],
        [{ name: 'x', unit: 'x', productGroupId: 'nope' }, '/productGroupId'],
      ];
      for (const [body, pointer] of cases) assertProblem(await call('POST', '/v1/products', cell.admin, body), 400, 'validation_failed', pointer);
      assertProblem(await call('POST', '/v1/products', cell.admin, { name: 'x', unit: 'x', weight: 3 }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('belongs to a product group of the workspace; moving and clearing it, filtering lists by it', async () => {
      const g1 = await createGroup();
      const g2 = await createGroup();
      const p = await createProduct({ productGroupId: g1.id.toUpperCase() });
      assert.equal(p.productGroupId, g1.id);
      const q = await createProduct({ productGroupId: g1.id });
      await createProduct();
      assert.deepEqual(
        (await listAll(`/v1/products?productGroupId=${g1.id}&limit=1`)).map((x) => x.id),
        [p.id, q.id],
      );
      const moved = await call<{ data: Product }>('PATCH', `/v1/products/${p.id}`, cell.admin, { productGroupId: g2.id, expectedVersion: p.version });
      assert.equal(moved.body.data.productGroupId, g2.id);
      assert.deepEqual(
        (await listAll(`/v1/products?productGroupId=${g2.id}`)).map((x) => x.id),
        [p.id],
      );
      const cleared = await call<{ data: Product }>('PATCH', `/v1/products/${p.id}`, cell.admin, { productGroupId: null, expectedVersion: moved.body.data.version });
      assert.equal(cleared.body.data.productGroupId, null);
      assert.deepEqual(await listAll(`/v1/products?productGroupId=${randomUUID()}`), []);
      assert.deepEqual(await listAll('/v1/products?productGroupId=not-a-uuid'), []);
      assertProblem(
        await call('PATCH', `/v1/products/${p.id}`, cell.admin, { productGroupId: other.groupId, expectedVersion: cleared.body.data.version }),
        400,
        'validation_failed',
        '/productGroupId',
      );
      assert.equal((await row(p.id)).productGroupId, null);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `product-${randomUUID()}`;
      const body = { name: 'Idempotent product', unit: 'x' };
      const first = await call<{ data: Product }>('POST', '/v1/products', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Product }>('POST', '/v1/products', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent product' } }), 1);
      assertProblem(await call('POST', '/v1/products', cell.admin, { name: 'Other', unit: 'x' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates are compare-and-set: the current version wins once, a stale one is 409 version_conflict, none is 400', async () => {
      const p = await createProduct({ description: 'keep' });
      const reply = await call<{ data: Product }>('PATCH', `/v1/products/${p.id}`, cell.admin, {
        name: 'Renamed',
        sku: 'SKU-1',
        salesPrice: { amount: '3.50', currency: 'EUR' },
        expectedVersion: p.version,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateProduct', reply.body.data);
      assert.deepEqual([reply.body.data.name, reply.body.data.sku, reply.body.data.description, reply.body.data.version], ['Renamed', 'SKU-1', 'keep', '2']);
      assert.deepEqual(reply.body.data.salesPrice, { amount: '3.5', currency: 'EUR' });
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, cell.admin, { name: 'Stale', expectedVersion: p.version }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, cell.admin, { name: 'No version' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, cell.admin, { expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, cell.admin, { name: '', expectedVersion: '2' }), 400, 'validation_failed', '/name');
      assertProblem(await call('PATCH', `/v1/products/${p.id}`, cell.admin, { unit: 'x', color: 'red', expectedVersion: '2' }), 400, 'validation_failed');
      const racers = await Promise.all([0, 1, 2, 3].map((i) => call('PATCH', `/v1/products/${p.id}`, cell.admin, { name: `racer ${i}`, expectedVersion: '2' }, {}, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(racers.map((r) => r.status).sort(), [200, 409, 409, 409]);
      assert.equal((await row(p.id)).revision, 3);
      assert.deepEqual(
        (await cell.outbox(p.id)).map((e) => e.eventType),
        ['product.created', 'product.updated', 'product.updated'],
      );
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const p = await createProduct();
      const archived = await call('DELETE', `/v1/products/${p.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.ok(!(await listAll('/v1/products?limit=200')).some((x) => x.id === p.id));
      assert.ok((await getProduct(p.id)).archivedAt !== null);
      assert.equal((await call('DELETE', `/v1/products/${p.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Product }>('POST', `/v1/products/${p.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreProduct', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.ok((await listAll('/v1/products?limit=200')).some((x) => x.id === p.id));
      assert.equal((await call('POST', `/v1/products/${p.id}/restore`, cell.admin)).status, 200, 'restoring again is fine');
      assert.deepEqual(
        (await cell.outbox(p.id)).map((e) => e.eventType),
        ['product.created', 'product.archived', 'product.restored'],
      );
    });

    it('pages with a cursor without gaps or repeats; bad cursors and limits are 400', async () => {
      const created: Product[] = [];
      for (let i = 0; i < 5; i++) created.push(await createProduct({ name: `Pager ${i}` }));
      const first = await call<ListBody<Product>>('GET', '/v1/products?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listProducts', item);
      const all = await listAll('/v1/products?limit=2');
      assert.equal(new Set(all.map((p) => p.id)).size, all.length, 'no repeats');
      assert.deepEqual(
        all.map((p) => p.id),
        [...all.map((p) => p.id)].sort(),
        'oldest first',
      );
      assert.deepEqual(
        all.filter((p) => created.some((c) => c.id === p.id)).map((p) => p.id),
        created.map((c) => c.id),
      );
      assertProblem(await call('GET', `/v1/products?cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      const g = await createGroup();
      assertProblem(await call('GET', `/v1/products?productGroupId=${g.id}&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', '/v1/products?limit=0', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/products?limit=201', cell.admin)).status, 400);
    });
  });

  describe('resource grants', () => {
    it('a service account sees and changes only granted products; a read grant cannot write; creating needs a type-wide write grant', async () => {
      const a = await createProduct({ purchasePrice: { amount: '2', currency: 'EUR' } });
      const b = await createProduct();
      const { token } = await cell.serviceAccount([...BASE, 'products:finance:read'], [{ resourceType: 'product', resourceId: a.id, access: 'read' }]);
      const got = await call<{ data: Product }>('GET', `/v1/products/${a.id}`, token);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data.purchasePrice, { amount: '2', currency: 'EUR' });
      assertProblem(await call('GET', `/v1/products/${b.id}`, token), 404, 'not_found');
      assert.deepEqual(
        (await listAll('/v1/products?limit=200', token)).map((p) => p.id),
        [a.id],
      );
      assertProblem(await call('PATCH', `/v1/products/${a.id}`, token, { name: 'x', expectedVersion: a.version }), 403, 'insufficient_grant');
      assertProblem(await call('DELETE', `/v1/products/${a.id}`, token), 403, 'insufficient_grant');
      assertProblem(await call('POST', `/v1/products/${a.id}/restore`, token), 403, 'insufficient_grant');
      assertProblem(await call('PATCH', `/v1/products/${b.id}`, token, { name: 'x', expectedVersion: b.version }), 404, 'not_found');
      assertProblem(await call('POST', '/v1/products', token, { name: 'x', unit: 'x' }), 403, 'insufficient_grant');
      assert.equal((await row(a.id)).revision, 1);

      const none = await cell.serviceAccount(BASE, []);
      assert.deepEqual(await listAll('/v1/products', none.token), []);
      assertProblem(await call('GET', `/v1/products/${a.id}`, none.token), 404, 'not_found');

      const group = await createGroup();
      const writer = await cell.serviceAccount(BASE, [{ resourceType: 'product', resourceId: null, access: 'write' }]);
      const created = await call<{ data: Product }>('POST', '/v1/products', writer.token, { name: 'By SA', unit: 'x' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assertProblem(await call('PATCH', `/v1/products/${a.id}`, writer.token, { productGroupId: group.id, expectedVersion: '1' }), 400, 'validation_failed', '/productGroupId');
      const updated = await call<{ data: Product }>('PATCH', `/v1/products/${b.id}`, writer.token, { name: 'Changed by SA', expectedVersion: b.version });
      assert.equal(updated.status, 200);
      const withGroup = await cell.serviceAccount(BASE, [
        { resourceType: 'product', resourceId: null, access: 'write' },
        { resourceType: 'product_group', resourceId: group.id, access: 'read' },
      ]);
      assert.equal((await call('PATCH', `/v1/products/${a.id}`, withGroup.token, { productGroupId: group.id, expectedVersion: '1' })).status, 200);
    });
  });
});
