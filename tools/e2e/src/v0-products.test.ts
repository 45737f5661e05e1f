import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { assertDeprecated as assertV0Deprecated, callV0, type LegacyReply as Reply, useV0Cell } from './support/v0.js';

/**
 * v0 /products and /productgroups (all 14 operations: supported and deprecated-alias) over the v1 procedures,
 * end to end against api-v0 and api-v1: every operation's success and error paths, body aliases with
 * Deprecation/Link, page/limit validation, the token's team on every write, and purchasePrice, which v0's
 * frozen broad shape keeps showing to the team token (v0 has no scopes).
 */

const env = useTestEnvironment();

type Money = { amount: string; currency: string };
type LegacyProduct = {
  _id: string;
  name: string;
  unit: string;
  sku: string | null;
  salesPrice: Money | null;
  purchasePrice?: Money | null;
  productGroupId: string | null;
  archivedAt: string | null;
  version: string;
};
type LegacyGroup = { _id: string; name: string; parentId: string | null; ancestorIds: string[]; archivedAt: string | null; version: string };

const MISSING = '0190a0b0-0000-7000-8000-000000000001';

describe('v0 products and product groups', () => {
  const cell = useV0Cell(env, { v1: true });
  const { teamToken } = cell;
  let pat: string;
  let noFinancePat: string;
  const other = { workspaceId: '', productId: '', groupId: '' };
  let seq = 0;

  const call = <T = unknown>(base: RunningApp, method: string, path: string, token: string | undefined, body?: unknown) => callV0<T>(base, method, path, token, body);
  const legacyError = (reply: Reply): { code: string; message: string } => {
    const error = (reply.body as { error?: { code: string; message: string } } | undefined)?.error;
    assert.ok(error && typeof error.code === 'string', `expected the legacy error shape, got ${reply.status} ${reply.text}`);
    return error;
  };
  const assertDeprecated = (reply: Reply, v1Path: string) => assertV0Deprecated(reply, cell.config, v1Path);
  const foreignTeam = () => ({ team: other.workspaceId, teamId: other.workspaceId, workspaceId: other.workspaceId, _team: other.workspaceId });
  const productRow = (id: string, ws = cell.workspaceId) => cell.database.prisma.product.findFirst({ where: { workspaceId: ws, id } });
  const groupRow = (id: string, ws = cell.workspaceId) => cell.database.prisma.productGroup.findFirst({ where: { workspaceId: ws, id } });
  const createProduct = async (token: string, body: Record<string, unknown> = {}) => {
    const reply = await call<LegacyProduct>(cell.v0, 'POST', '/products', token, { name: `Product ${++seq}`, unit: 'piece', ...body });
    assert.equal(reply.status, 201, reply.text);
    return reply.body;
  };
  const createGroup = async (token: string, body: Record<string, unknown> = {}) => {
    const reply = await call<LegacyGroup>(cell.v0, 'POST', '/productgroups', token, { name: `Group ${++seq}`, ...body });
    assert.equal(reply.status, 201, reply.text);
    return reply.body;
  };

  beforeAll(async () => {
    pat = await cell.mint(V1_SCOPES);
    noFinancePat = await cell.mint(V1_SCOPES.filter((s) => !s.startsWith('products:finance:')));
    other.workspaceId = await cell.otherWorkspace();
    other.groupId = (await cell.database.prisma.productGroup.create({ data: { workspaceId: other.workspaceId, name: 'Foreign group' } })).id;
    other.productId = (await cell.database.prisma.product.create({ data: { workspaceId: other.workspaceId, name: 'Foreign product', unit: 'kg' } })).id;
  });

  describe('products', () => {
    it('POST /products creates (201) what v1 reads with the same id; purchasePrice is shown to the team token; unknown and team fields are ignored', async () => {
      const token = await teamToken();
      const reply = await call<LegacyProduct & Record<string, unknown>>(cell.v0, 'POST', '/products', token, {
        name: 'Saw',
        unit: 'piece',
        salesPrice: { amount: '20', currency: 'EUR' },
        purchasePrice: { amount: '12.5', currency: 'EUR' },
        createdAt: 'ignored',
        whatever: 1,
        ...foreignTeam(),
      });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.headers.get('deprecation'), null);
      const p = reply.body;
      assert.equal(p['id'], undefined);
      assert.deepEqual([p.name, p.unit, p.purchasePrice, p.salesPrice], ['Saw', 'piece', { amount: '12.5', currency: 'EUR' }, { amount: '20', currency: 'EUR' }]);
      assert.ok(await productRow(p._id), 'written in the token’s team');
      assert.equal(await cell.database.prisma.product.count({ where: { workspaceId: other.workspaceId } }), 1);
      const v1Read = await call<{ data: LegacyProduct & { id: string } }>(cell.v1, 'GET', `/v1/products/${p._id}`, pat);
      assert.deepEqual(v1Read.body.data.purchasePrice, { amount: '12.5', currency: 'EUR' });
      const v1Plain = await call<{ data: Record<string, unknown> }>(cell.v1, 'GET', `/v1/products/${p._id}`, noFinancePat);
      assert.ok(!('purchasePrice' in v1Plain.body.data), 'v1 still hides it without the finance scope');
    });

    it('POST /products refuses invalid bodies with 400 (legacy shape) and writes nothing', async () => {
      const token = await teamToken();
      const before = await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId } });
      for (const body of [
        undefined,
        '[1]',
        '{}',
        { name: 'x' },
        { name: '', unit: 'x' },
        { name: 'x', unit: 'x', purchasePrice: { amount: 'abc', currency: 'EUR' } },
        { name: 'x', unit: 'x', productGroupId: other.groupId },
      ]) {
        const reply = await call(cell.v0, 'POST', '/products', token, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${reply.text}`);
        legacyError(reply);
      }
      assert.equal(await cell.database.prisma.product.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('GET /products lists (page/limit) including purchasePrice; bad page or limit is 400', async () => {
      const token = await teamToken();
      const created = [await createProduct(token, { purchasePrice: { amount: '1', currency: 'EUR' } }), await createProduct(token), await createProduct(token)];
      const all = await call<LegacyProduct[]>(cell.v0, 'GET', '/products?limit=500', token);
      assert.equal(all.status, 200);
      assert.ok(all.body.every((p) => typeof p._id === 'string' && !('id' in p) && 'purchasePrice' in p));
      assert.deepEqual(all.body.find((p) => p._id === created[0]!._id)?.purchasePrice, { amount: '1', currency: 'EUR' });
      assert.ok(!all.body.some((p) => p._id === other.productId));
      const page2 = await call<LegacyProduct[]>(cell.v0, 'GET', '/products?page=2&limit=1', token);
      assert.deepEqual(
        page2.body.map((p) => p._id),
        [all.body[1]!._id],
      );
      for (const query of ['page=0', 'page=x', 'limit=0', 'limit=501']) {
        for (const path of ['/products', `/products/${created[0]!._id}`]) {
          const reply = await call(cell.v0, 'GET', `${path}?${query}`, token);
          assert.equal(reply.status, 400, `${path}?${query}`);
          legacyError(reply);
        }
      }
    });

    it('GET /products/{_id} reads one; unknown and foreign ids are 404', async () => {
      const token = await teamToken();
      const p = await createProduct(token);
      const reply = await call<LegacyProduct>(cell.v0, 'GET', `/products/${p._id}`, token);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, p);
      for (const id of [other.productId, MISSING, 'nope']) {
        const missing = await call(cell.v0, 'GET', `/products/${id}`, token);
        assert.equal(missing.status, 404);
        assert.equal(legacyError(missing).code, 'not_found');
      }
    });

    it('PUT /products/{_id} updates the sent attributes (last writer wins), purchasePrice included; 400 and 404 change nothing', async () => {
      const token = await teamToken();
      const p = await createProduct(token, { sku: 'keep' });
      const reply = await call<LegacyProduct>(cell.v0, 'PUT', `/products/${p._id}`, token, { name: 'Renamed', purchasePrice: { amount: '3', currency: 'USD' }, version: '99', ...foreignTeam() });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body.name, reply.body.sku, reply.body.purchasePrice, reply.body.version], ['Renamed', 'keep', { amount: '3', currency: 'USD' }, '2']);
      for (const body of [{}, { name: '' }, { salesPrice: { amount: '-1', currency: 'EUR' } }]) {
        const bad = await call(cell.v0, 'PUT', `/products/${p._id}`, token, body);
        assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.text}`);
        legacyError(bad);
      }
      assert.equal((await productRow(p._id))?.revision, 2);
      assert.equal((await call(cell.v0, 'PUT', `/products/${other.productId}`, token, { name: 'Stolen', ...foreignTeam() })).status, 404);
      assert.equal((await call(cell.v0, 'PUT', `/products/${MISSING}`, token, { name: 'x' })).status, 404);
      assert.equal((await productRow(other.productId, other.workspaceId))?.name, 'Foreign product');
    });

    it('PUT /products (deprecated alias) takes the id from the body _id, with Deprecation and Link; without _id it is 400', async () => {
      const token = await teamToken();
      const p = await createProduct(token);
      const reply = await call<LegacyProduct>(cell.v0, 'PUT', '/products', token, { _id: p._id, name: 'Via alias' });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.name, 'Via alias');
      assertDeprecated(reply, `/v1/products/${p._id}`);
      const noId = await call(cell.v0, 'PUT', '/products', token, { name: 'x' });
      assert.equal(noId.status, 400);
      assert.match(legacyError(noId).message, /_id/);
      const foreign = await call(cell.v0, 'PUT', '/products', token, { _id: other.productId, name: 'Stolen' });
      assert.equal(foreign.status, 404);
    });

    it('DELETE /products/{_id} archives (204): v0 no longer sees it, v1 shows it archived; again is 404', async () => {
      const token = await teamToken();
      const p = await createProduct(token);
      const reply = await call(cell.v0, 'DELETE', `/products/${p._id}`, token);
      assert.equal(reply.status, 204, reply.text);
      assert.equal((await call(cell.v0, 'GET', `/products/${p._id}`, token)).status, 404);
      assert.ok((await productRow(p._id))?.archivedAt);
      assert.equal((await call(cell.v0, 'DELETE', `/products/${p._id}`, token)).status, 404);
      assert.equal((await call(cell.v0, 'DELETE', `/products/${other.productId}`, token)).status, 404);
      assert.equal((await productRow(other.productId, other.workspaceId))?.archivedAt, null);
    });

    it('DELETE /products (deprecated alias) archives the body _id with Deprecation and Link; without _id it is 400', async () => {
      const token = await teamToken();
      const p = await createProduct(token);
      const reply = await call(cell.v0, 'DELETE', '/products', token, { _id: p._id, ...foreignTeam() });
      assert.equal(reply.status, 204, reply.text);
      assertDeprecated(reply, `/v1/products/${p._id}`);
      assert.ok((await productRow(p._id))?.archivedAt);
      const noId = await call(cell.v0, 'DELETE', '/products', token);
      assert.equal(noId.status, 400);
      legacyError(noId);
      assert.equal((await call(cell.v0, 'DELETE', '/products', token, { _id: other.productId })).status, 404);
    });
  });

  describe('product groups', () => {
    it('POST /productgroups creates (201) roots and children in the token’s team; invalid bodies are 400', async () => {
      const token = await teamToken();
      const root = await createGroup(token, foreignTeam());
      const child = await createGroup(token, { parentId: root._id });
      assert.deepEqual([child.parentId, child.ancestorIds], [root._id, [root._id]]);
      assert.ok(await groupRow(root._id));
      const before = await cell.database.prisma.productGroup.count({ where: { workspaceId: cell.workspaceId } });
      for (const body of [undefined, '{}', { name: '' }, { name: 'x', parentId: other.groupId }, { name: 'x', parentId: MISSING }]) {
        const reply = await call(cell.v0, 'POST', '/productgroups', token, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${reply.text}`);
        legacyError(reply);
      }
      assert.equal(await cell.database.prisma.productGroup.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('GET /productgroups lists (page/limit); GET /productgroups/{_id} reads one; unknown and foreign are 404; bad page is 400', async () => {
      const token = await teamToken();
      const g = await createGroup(token);
      await createGroup(token);
      const all = await call<LegacyGroup[]>(cell.v0, 'GET', '/productgroups?limit=500', token);
      assert.equal(all.status, 200);
      assert.ok(all.body.some((x) => x._id === g._id) && !all.body.some((x) => x._id === other.groupId));
      const page2 = await call<LegacyGroup[]>(cell.v0, 'GET', '/productgroups?page=2&limit=1', token);
      assert.deepEqual(
        page2.body.map((x) => x._id),
        [all.body[1]!._id],
      );
      const one = await call<LegacyGroup>(cell.v0, 'GET', `/productgroups/${g._id}`, token);
      assert.deepEqual(one.body, g);
      for (const id of [other.groupId, MISSING]) assert.equal((await call(cell.v0, 'GET', `/productgroups/${id}`, token)).status, 404);
      for (const path of ['/productgroups?limit=0', '/productgroups?page=0', `/productgroups/${g._id}?limit=501`]) {
        const reply = await call(cell.v0, 'GET', path, token);
        assert.equal(reply.status, 400, path);
        legacyError(reply);
      }
    });

    it('PUT /productgroups/{_id} renames and moves; a cycle is refused and changes nothing; foreign is 404', async () => {
      const token = await teamToken();
      const a = await createGroup(token);
      const b = await createGroup(token, { parentId: a._id });
      const reply = await call<LegacyGroup>(cell.v0, 'PUT', `/productgroups/${a._id}`, token, { name: 'Renamed', ...foreignTeam() });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body.name, reply.body.version], ['Renamed', '2']);
      const cycle = await call(cell.v0, 'PUT', `/productgroups/${a._id}`, token, { parentId: b._id });
      assert.ok(cycle.status >= 400 && cycle.status < 500, cycle.text);
      legacyError(cycle);
      assert.equal((await groupRow(a._id))?.parentId, null);
      assert.equal((await call(cell.v0, 'PUT', `/productgroups/${a._id}`, token, {})).status, 400);
      assert.equal((await call(cell.v0, 'PUT', `/productgroups/${other.groupId}`, token, { name: 'Stolen' })).status, 404);
      assert.equal((await groupRow(other.groupId, other.workspaceId))?.name, 'Foreign group');
    });

    it('PUT /productgroups (deprecated alias) takes the body _id with Deprecation and Link; without _id it is 400', async () => {
      const token = await teamToken();
      const g = await createGroup(token);
      const reply = await call<LegacyGroup>(cell.v0, 'PUT', '/productgroups', token, { _id: g._id, name: 'Via alias' });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.name, 'Via alias');
      assertDeprecated(reply, `/v1/product-groups/${g._id}`);
      const noId = await call(cell.v0, 'PUT', '/productgroups', token, { name: 'x' });
      assert.equal(noId.status, 400);
      assert.match(legacyError(noId).message, /_id/);
    });

    it('DELETE /productgroups/{_id} and DELETE /productgroups (alias) archive (204); again or foreign is 404; no _id is 400', async () => {
      const token = await teamToken();
      const g = await createGroup(token);
      const h = await createGroup(token);
      assert.equal((await call(cell.v0, 'DELETE', `/productgroups/${g._id}`, token)).status, 204);
      assert.ok((await groupRow(g._id))?.archivedAt);
      assert.equal((await call(cell.v0, 'GET', `/productgroups/${g._id}`, token)).status, 404);
      assert.equal((await call(cell.v0, 'DELETE', `/productgroups/${g._id}`, token)).status, 404);
      const alias = await call(cell.v0, 'DELETE', '/productgroups', token, { _id: h._id });
      assert.equal(alias.status, 204, alias.text);
      assertDeprecated(alias, `/v1/product-groups/${h._id}`);
      assert.ok((await groupRow(h._id))?.archivedAt);
      assert.equal((await call(cell.v0, 'DELETE', '/productgroups', token)).status, 400);
      assert.equal((await call(cell.v0, 'DELETE', `/productgroups/${other.groupId}`, token)).status, 404);
      assert.equal((await call(cell.v0, 'DELETE', '/productgroups', token, { _id: other.groupId })).status, 404);
      assert.equal((await groupRow(other.groupId, other.workspaceId))?.archivedAt, null);
    });
  });
});
