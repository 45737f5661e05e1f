import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { getV1Operation } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 project statements (v0 journal entries), end to end against the running services: scopes, the finance
 * overlay (contract 5.3: budget statements and purchasePrice), tenancy, validation with pointers, compare-and-set
 * updates, archive/restore and list exclusion, filters and pagination, outbox events without purchasePrice,
 * idempotent creates and resource grants.
 */

const env = useTestEnvironment();

type Money = { amount: string; currency: string };
type Statement = {
  id: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  projectId: string;
  kind: string;
  occurredOn: string;
  description: string | null;
  quantity: string;
  unitPrice: Money;
  purchasePrice?: Money | null;
  productId: string | null;
  serviceId: string | null;
  version: string;
};

const BASE = ['project-statements:read', 'project-statements:write'];
const FINANCE = ['project-statements:finance:read', 'project-statements:finance:write'];
const PATH = '/v1/project-statements';

/** The registry shape; without the finance read overlay the resource has every field but purchasePrice. */
function assertStatementShape(operationId: string, data: unknown, withFinance: boolean): void {
  if (withFinance) return assertShape(operationId, data);
  const response = getV1Operation(operationId).response;
  assert.ok(response.kind === 'single' || response.kind === 'list');
  const schema = response.schema as unknown as { shape: Record<string, unknown>; safeParse(v: unknown): { success: boolean } };
  assert.ok(schema.safeParse(data).success, JSON.stringify(data));
  assert.deepEqual(
    Object.keys(data as object).sort(),
    Object.keys(schema.shape)
      .filter((k) => k !== 'purchasePrice')
      .sort(),
  );
}

describe('v1 project statements', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  /** Base scopes only. */
  let plain: string;
  let projectId: string;
  let project2Id: string;
  const other = { workspaceId: '', projectId: '', statementId: '' };
  let seq = 0;

  const body = (extra: Record<string, unknown> = {}) => ({
    projectId,
    kind: 'expense',
    occurredOn: '2026-03-01',
    description: `Statement ${++seq}`,
    quantity: '2.5',
    unitPrice: { amount: '40', currency: 'EUR' },
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Statement }>('POST', PATH, token, body(extra));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const row = (id: string) => cell.database.prisma.projectStatement.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
  const count = () => cell.database.prisma.projectStatement.count({ where: { workspaceId: cell.workspaceId } });
  const listAll = (path: string, token = cell.admin) => listAllPages<Statement>(cell.v1, path, token);

  beforeAll(async () => {
    plain = await cell.mint(BASE);
    projectId = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Statements project' } })).id;
    project2Id = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Second project' } })).id;
    other.workspaceId = await cell.otherWorkspace();
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign project' } })).id;
    other.statementId = (
      await cell.database.prisma.projectStatement.create({
        data: { workspaceId: other.workspaceId, projectId: other.projectId, kind: 'expense', occurredOn: new Date('2026-01-01'), amount: '1', currency: 'EUR' },
      })
    ).id;
  });

  describe('scopes', () => {
    it('every operation answers 403 insufficient_scope naming its base scope; the finance overlay alone grants nothing', async () => {
      const id = randomUUID();
      const operations: [string, string, string][] = [
        ['GET', PATH, 'project-statements:read'],
        ['POST', PATH, 'project-statements:write'],
        ['GET', `${PATH}/${id}`, 'project-statements:read'],
        ['PATCH', `${PATH}/${id}`, 'project-statements:write'],
        ['DELETE', `${PATH}/${id}`, 'project-statements:write'],
        ['POST', `${PATH}/${id}/restore`, 'project-statements:write'],
      ];
      for (const token of [await cell.mint(V1_SCOPES.filter((s) => !s.startsWith('project-statements:'))), await cell.mint(FINANCE)]) {
        for (const [method, path, scope] of operations) {
          const reply = await call(method, path, token, method === 'GET' || method === 'DELETE' || path.endsWith('/restore') ? undefined : body({ expectedVersion: '1' }));
          assert.equal(reply.status, 403, `${method} ${path}`);
          assert.equal(errorOf(reply).code, 'insufficient_scope');
          assert.match(errorOf(reply).detail, new RegExp(scope), `${method} ${path} names ${scope}`);
        }
      }
    });

    it('project-statements:read reads but does not write', async () => {
      const reader = await cell.mint(['project-statements:read']);
      const s = await create();
      assert.equal((await call('GET', `${PATH}/${s.id}`, reader)).status, 200);
      assert.equal((await call('GET', PATH, reader)).status, 200);
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, reader, { expectedVersion: s.version, description: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('POST', PATH, reader, body()), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `${PATH}/${s.id}`, reader), 403, 'insufficient_scope');
      assert.equal((await row(s.id)).revision, 1);
    });
  });

  describe('tenancy', () => {
    it('another workspace’s statement answers exactly like a missing one (404) and is never changed or listed', async () => {
      for (const id of [other.statementId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `${PATH}/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `${PATH}/${id}`, cell.admin, { expectedVersion: '1', description: 'Hijacked' }), 404, 'not_found');
        assertProblem(await call('DELETE', `${PATH}/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `${PATH}/${id}/restore`, cell.admin), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.projectStatement.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.statementId } });
      assert.deepEqual([foreign.description, foreign.revision, foreign.archivedAt], [null, 1, null]);
      assert.ok(!(await listAll(`${PATH}?limit=200`)).some((s) => s.id === other.statementId));
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.statementId } }), 0);
    });

    it('a statement cannot be created on another workspace’s project (400 /projectId, nothing written)', async () => {
      const before = await count();
      assertProblem(await call('POST', PATH, cell.admin, body({ projectId: other.projectId })), 400, 'validation_failed', '/projectId');
      assert.equal(await count(), before);
      assert.equal(await cell.database.prisma.projectStatement.count({ where: { workspaceId: other.workspaceId } }), 1);
    });
  });

  describe('statements', () => {
    it('creates a statement: 201, Location, strong ETag, the registry shape and project_statement.created in the outbox', async () => {
      const reply = await call<{ data: Statement }>('POST', PATH, cell.admin, body({ purchasePrice: { amount: '12.5', currency: 'USD' } }));
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const s = reply.body.data;
      assert.equal(reply.headers.get('location'), `${PATH}/${s.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createProjectStatement', s);
      assert.deepEqual(
        {
          projectId: s.projectId,
          kind: s.kind,
          occurredOn: s.occurredOn,
          quantity: s.quantity,
          unitPrice: s.unitPrice,
          purchasePrice: s.purchasePrice,
          productId: s.productId,
          serviceId: s.serviceId,
          version: s.version,
          archivedAt: s.archivedAt,
        },
        {
          projectId,
          kind: 'expense',
          occurredOn: '2026-03-01',
          quantity: '2.5',
          unitPrice: { amount: '40', currency: 'EUR' },
          purchasePrice: { amount: '12.5', currency: 'USD' },
          productId: null,
          serviceId: null,
          version: '1',
          archivedAt: null,
        },
      );
      assert.deepEqual(
        (await cell.outbox(s.id)).map((e) => [e.eventType, e.aggregateType]),
        [['project_statement.created', 'project_statement']],
      );
      const got = await call<{ data: Statement }>('GET', `${PATH}/${s.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getProjectStatement', got.body.data);
      assert.deepEqual(got.body.data, s);
    });

    it('takes a product and a service of the workspace; unknown or foreign references are 400 with a pointer and nothing is written', async () => {
      const productId = (await cell.database.prisma.product.create({ data: { workspaceId: cell.workspaceId, name: 'Cable' } })).id;
      const serviceId = (await cell.database.prisma.service.create({ data: { workspaceId: cell.workspaceId, name: 'Consulting' } })).id;
      const s = await create({ productId, serviceId });
      assert.deepEqual([s.productId, s.serviceId], [productId, serviceId]);
      const foreignService = (await cell.database.prisma.service.create({ data: { workspaceId: other.workspaceId, name: 'Foreign service' } })).id;
      const before = await count();
      assertProblem(await call('POST', PATH, cell.admin, body({ productId: randomUUID() })), 400, 'validation_failed', '/productId');
      assertProblem(await call('POST', PATH, cell.admin, body({ serviceId: foreignService })), 400, 'validation_failed', '/serviceId');
      assertProblem(await call('POST', PATH, cell.admin, body({ projectId: randomUUID() })), 400, 'validation_failed', '/projectId');
      const both = await call('POST', PATH, cell.admin, body({ projectId: other.projectId, productId: 'nope' }));
      assertProblem(both, 400, 'validation_failed', '/projectId');
      assertProblem(both, 400, 'validation_failed', '/productId');
      assert.equal(await count(), before);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await count();
      const { quantity: _q, ...noQuantity } = body();
      assertProblem(await call('POST', PATH, cell.admin, noQuantity), 400, 'validation_failed', '/quantity');
      assertProblem(await call('POST', PATH, cell.admin, body({ kind: 'gift' })), 400, 'validation_failed', '/kind');
      assertProblem(await call('POST', PATH, cell.admin, body({ occurredOn: '2026-02-30' })), 400, 'validation_failed', '/occurredOn');
      assertProblem(await call('POST', PATH, cell.admin, body({ quantity: '1.23456' })), 400, 'validation_failed', '/quantity');
      assertProblem(await call('POST', PATH, cell.admin, body({ unitPrice: { amount: '1,5', currency: 'EUR' } })), 400, 'validation_failed', '/unitPrice/amount');
      assertProblem(await call('POST', PATH, cell.admin, body({ unitPrice: { amount: '1', currency: 'eur' } })), 400, 'validation_failed', '/unitPrice/currency');
      assertProblem(await call('POST', PATH, cell.admin, body({ title: 'extra' })), 400, 'validation_failed');
      assert.equal(await count(), before);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `statement-${randomUUID()}`;
      const payload = body({ description: 'Idempotent statement' });
      const first = await call<{ data: Statement }>('POST', PATH, cell.admin, payload, { 'idempotency-key': key });
      const second = await call<{ data: Statement }>('POST', PATH, cell.admin, payload, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.projectStatement.count({ where: { workspaceId: cell.workspaceId, description: 'Idempotent statement' } }), 1);
      assertProblem(await call('POST', PATH, cell.admin, body({ description: 'Other' }), { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates compare-and-set: the version moves on, a stale one is 409 version_conflict and changes nothing', async () => {
      const s = await create();
      const reply = await call<{ data: Statement }>('PATCH', `${PATH}/${s.id}`, cell.admin, {
        expectedVersion: s.version,
        kind: 'revenue',
        description: null,
        occurredOn: '2026-04-02',
        quantity: '3',
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateProjectStatement', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.kind, reply.body.data.description, reply.body.data.occurredOn, reply.body.data.quantity, reply.body.data.version], ['revenue', null, '2026-04-02', '3', '2']);
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: s.version, description: 'stale' }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { description: 'no version' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2', projectId: project2Id }), 400, 'validation_failed');
      assert.equal((await row(s.id)).revision, 2);
      const events = await cell.outbox(s.id, 'project_statement.updated');
      assert.equal(events.length, 1);
      assert.deepEqual((events[0]!.payload as { changed: string[] }).changed.sort(), ['description', 'kind', 'occurredOn', 'quantity']);
    });

    it('of concurrent updates on one version exactly one wins, on either instance', async () => {
      const s = await create();
      const replies = await Promise.all(
        Array.from({ length: 4 }, (_, i) => call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: s.version, description: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409, 409]);
      assert.equal((await row(s.id)).revision, 2);
      assert.equal((await cell.outbox(s.id, 'project_statement.updated')).length, 1);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const s = await create();
      const archived = await call('DELETE', `${PATH}/${s.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.ok(!(await listAll(`${PATH}?limit=200`)).some((x) => x.id === s.id));
      const got = await call<{ data: Statement }>('GET', `${PATH}/${s.id}`, cell.admin);
      assert.ok(got.body.data.archivedAt !== null);
      assert.equal((await call('DELETE', `${PATH}/${s.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Statement }>('POST', `${PATH}/${s.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreProjectStatement', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.ok((await listAll(`${PATH}?limit=200`)).some((x) => x.id === s.id));
      assert.deepEqual(
        (await cell.outbox(s.id)).map((e) => e.eventType),
        ['project_statement.created', 'project_statement.archived', 'project_statement.restored'],
      );
    });

    it('filters by project, kind and an inclusive date range, and pages with a cursor without gaps or repeats', async () => {
      const made: Statement[] = [];
      for (let i = 0; i < 5; i++) made.push(await create({ projectId: project2Id, occurredOn: `2026-05-0${i + 1}`, kind: i % 2 ? 'revenue' : 'expense' }));
      const ofProject = await listAll(`${PATH}?limit=2&projectId=${project2Id}`);
      assert.deepEqual(
        ofProject.map((s) => s.id),
        made.map((s) => s.id),
      );
      for (const item of ofProject) assertShape('listProjectStatements', item);
      assert.deepEqual(
        (await listAll(`${PATH}?projectId=${project2Id}&kind=revenue`)).map((s) => s.id),
        [made[1]!.id, made[3]!.id],
      );
      assert.deepEqual(
        (await listAll(`${PATH}?projectId=${project2Id}&from=2026-05-02&to=2026-05-04`)).map((s) => s.id),
        [made[1]!.id, made[2]!.id, made[3]!.id],
      );
      assert.deepEqual(await listAll(`${PATH}?projectId=not-a-uuid`), []);
      const first = await call<ListBody<Statement>>('GET', `${PATH}?limit=2&projectId=${project2Id}`, cell.admin);
      assert.ok(first.body.meta.nextCursor);
      assertProblem(await call('GET', `${PATH}?limit=2&projectId=${project2Id}&cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assertProblem(await call('GET', `${PATH}?limit=2&projectId=${projectId}&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', `${PATH}?limit=201`, cell.admin)).status, 400);
      assert.equal((await call('GET', `${PATH}?kind=gift`, cell.admin)).status, 400);
      assert.equal((await call('GET', `${PATH}?unknown=1`, cell.admin)).status, 400);
    });
  });

  describe('finance overlay (contract 5.3)', () => {
    it('without finance:read, budget statements do not exist: left out of lists, 404 on get, update, archive and restore, unchanged', async () => {
      const budget = await create({ kind: 'budget', purchasePrice: { amount: '100', currency: 'EUR' } });
      assert.equal(budget.kind, 'budget');
      assert.ok(
        (await listAll(`${PATH}?limit=200`)).some((s) => s.id === budget.id),
        'the finance reader sees it',
      );
      assert.ok(!(await listAll(`${PATH}?limit=200`, plain)).some((s) => s.id === budget.id));
      assert.deepEqual(await listAll(`${PATH}?kind=budget`, plain), []);
      assertProblem(await call('GET', `${PATH}/${budget.id}`, plain), 404, 'not_found');
      assertProblem(await call('PATCH', `${PATH}/${budget.id}`, plain, { expectedVersion: budget.version, description: 'x' }), 404, 'not_found');
      assertProblem(await call('DELETE', `${PATH}/${budget.id}`, plain), 404, 'not_found');
      assertProblem(await call('POST', `${PATH}/${budget.id}/restore`, plain), 404, 'not_found');
      const stored = await row(budget.id);
      assert.deepEqual([stored.revision, stored.archivedAt, stored.description], [1, null, budget.description]);
    });

    it('without finance:read, purchasePrice is omitted from every response', async () => {
      const s = await create({ purchasePrice: { amount: '7.25', currency: 'EUR' } });
      const got = await call<{ data: Statement }>('GET', `${PATH}/${s.id}`, plain);
      assert.equal(got.status, 200);
      assertStatementShape('getProjectStatement', got.body.data, false);
      const listed = (await listAll(`${PATH}?limit=200`, plain)).find((x) => x.id === s.id);
      assert.ok(listed && !('purchasePrice' in listed));
      const updated = await call<{ data: Statement }>('PATCH', `${PATH}/${s.id}`, plain, { expectedVersion: s.version, description: 'plain edit' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assertStatementShape('updateProjectStatement', updated.body.data, false);
      assert.equal((await row(s.id)).purchasePrice?.toString(), '7.25', 'an edit without purchasePrice keeps it');
      const created = await call<{ data: Statement }>('POST', PATH, plain, body());
      assert.equal(created.status, 201);
      assertStatementShape('createProjectStatement', created.body.data, false);
      assert.equal((await call('DELETE', `${PATH}/${s.id}`, plain)).status, 204);
      const restored = await call<{ data: Statement }>('POST', `${PATH}/${s.id}/restore`, plain);
      assertStatementShape('restoreProjectStatement', restored.body.data, false);
      const reader = await cell.mint([...BASE, 'project-statements:finance:read']);
      assert.deepEqual((await call<{ data: Statement }>('GET', `${PATH}/${s.id}`, reader)).body.data.purchasePrice, { amount: '7.25', currency: 'EUR' });
    });

    it('supplying purchasePrice or writing a budget statement without finance:write is 403 naming the scope, and writes nothing', async () => {
      const reader = await cell.mint([...BASE, 'project-statements:finance:read']);
      for (const token of [plain, reader]) {
        const before = await count();
        for (const extra of [{ kind: 'budget' }, { purchasePrice: { amount: '1', currency: 'EUR' } }, { purchasePrice: null }]) {
          const reply = await call('POST', PATH, token, body(extra));
          assertProblem(reply, 403, 'insufficient_scope');
          assert.match(errorOf(reply).detail, /project-statements:finance:write/);
        }
        assert.equal(await count(), before);
        const s = await create();
        for (const change of [{ kind: 'budget' }, { purchasePrice: { amount: '1', currency: 'EUR' } }, { purchasePrice: null }]) {
          const reply = await call('PATCH', `${PATH}/${s.id}`, token, { expectedVersion: s.version, ...change });
          assertProblem(reply, 403, 'insufficient_scope');
          assert.match(errorOf(reply).detail, /project-statements:finance:write/);
        }
        assert.equal((await row(s.id)).revision, 1);
      }
      // A finance reader sees budget statements but cannot change, archive or restore them.
      const budget = await create({ kind: 'budget' });
      assert.equal((await call('GET', `${PATH}/${budget.id}`, reader)).status, 200);
      for (const [method, path, payload] of [
        ['PATCH', `${PATH}/${budget.id}`, { expectedVersion: budget.version, description: 'x' }],
        ['DELETE', `${PATH}/${budget.id}`, undefined],
        ['POST', `${PATH}/${budget.id}/restore`, undefined],
      ] as const) {
        const reply = await call(method, path, reader, payload);
        assertProblem(reply, 403, 'insufficient_scope');
        assert.match(errorOf(reply).detail, /project-statements:finance:write/);
      }
      assert.equal((await row(budget.id)).revision, 1);
      assert.equal((await cell.outbox(budget.id)).length, 1);
    });

    it('the finance writer sets and clears purchasePrice and moves statements in and out of budget', async () => {
      const s = await create();
      const set = await call<{ data: Statement }>('PATCH', `${PATH}/${s.id}`, cell.admin, {
        expectedVersion: s.version,
        kind: 'budget',
        purchasePrice: { amount: '999999999999999.999999', currency: 'CHF' },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual([set.body.data.kind, set.body.data.purchasePrice], ['budget', { amount: '999999999999999.999999', currency: 'CHF' }]);
      const cleared = await call<{ data: Statement }>('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2', kind: 'expense', purchasePrice: null });
      assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
      assert.deepEqual([cleared.body.data.kind, cleared.body.data.purchasePrice], ['expense', null]);
    });

    it('outbox events never carry purchasePrice', async () => {
      const s = await create({ purchasePrice: { amount: '55', currency: 'EUR' } });
      await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: s.version, purchasePrice: { amount: '66', currency: 'EUR' } });
      await call('DELETE', `${PATH}/${s.id}`, cell.admin);
      await call('POST', `${PATH}/${s.id}/restore`, cell.admin);
      const events = await cell.outbox(s.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['project_statement.created', 'project_statement.updated', 'project_statement.archived', 'project_statement.restored'],
      );
      for (const event of events) {
        const text = JSON.stringify(event.payload);
        assert.ok(!text.includes('purchasePrice') && !text.includes('"55"') && !text.includes('"66"'), text);
      }
    });
  });

  describe('resource grants', () => {
    it('a service account sees only granted statements; a read grant cannot write; creating needs a type-wide write grant', async () => {
      const a = await create();
      const b = await create();
      const { token } = await cell.serviceAccount([...BASE, ...FINANCE], [{ resourceType: 'project_statement', resourceId: a.id, access: 'read' }]);
      assert.deepEqual(
        (await listAll(`${PATH}?limit=200`, token)).map((s) => s.id),
        [a.id],
      );
      assert.equal((await call('GET', `${PATH}/${a.id}`, token)).status, 200);
      assertProblem(await call('GET', `${PATH}/${b.id}`, token), 404, 'not_found');
      assertProblem(await call('PATCH', `${PATH}/${a.id}`, token, { expectedVersion: a.version, description: 'x' }), 403, 'insufficient_grant');
      assertProblem(await call('DELETE', `${PATH}/${a.id}`, token), 403, 'insufficient_grant');
      assertProblem(await call('PATCH', `${PATH}/${b.id}`, token, { expectedVersion: b.version, description: 'x' }), 404, 'not_found');
      assertProblem(await call('POST', PATH, token, body()), 403, 'insufficient_grant');
      assert.equal((await row(a.id)).revision, 1);

      const writer = await cell.serviceAccount(BASE, [{ resourceType: 'project_statement', resourceId: null, access: 'write' }]);
      const created = await call<{ data: Statement }>('POST', PATH, writer.token, body());
      assert.equal(created.status, 201);
      assert.equal((await call('PATCH', `${PATH}/${b.id}`, writer.token, { expectedVersion: b.version, description: 'granted' })).status, 200);
      const none = await cell.serviceAccount(BASE, []);
      assert.deepEqual(await listAll(`${PATH}?limit=200`, none.token), []);
    });
  });
});
