import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 services and their billing rates, end to end against the running services: scopes (services:read reads the
 * rates), tenancy, validation with pointers, compare-and-set updates, the atomic whole-set rate replacement
 * (compare-and-set on the service's version), archive/restore and list exclusion, pagination, outbox events,
 * idempotent creates and resource grants.
 */

const env = useTestEnvironment();

type Money = { amount: string; currency: string };
type Service = { id: string; createdAt: string; updatedAt: string; archivedAt: string | null; name: string; description: string | null; billable: boolean; defaultRate: Money | null; version: string };
type Rates = { serviceId: string; rates: { memberId: string | null; validFrom: string; rate: Money }[]; version: string };

const PATH = '/v1/services';

describe('v1 services', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  let memberId: string;
  const other = { workspaceId: '', serviceId: '', memberId: '' };
  let seq = 0;

  const create = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Service }>('POST', PATH, token, { name: `Service ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const row = (id: string) => cell.database.prisma.service.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
  const rateRows = (serviceId: string) => cell.database.prisma.serviceBillingRate.count({ where: { workspaceId: cell.workspaceId, serviceId } });
  const listAll = (path: string, token = cell.admin) => listAllPages<Service>(cell.v1, path, token);

  beforeAll(async () => {
    memberId = cell.ownerMemberId;
    other.workspaceId = await cell.otherWorkspace();
    other.serviceId = (await cell.database.prisma.service.create({ data: { workspaceId: other.workspaceId, name: 'Foreign service' } })).id;
    const user = await cell.database.prisma.user.create({ data: { email: `foreign-${randomUUID()}@example.com`, name: 'Foreign member' } });
    other.memberId = (await cell.database.prisma.workspaceMember.create({ data: { workspaceId: other.workspaceId, userId: user.id } })).id;
  });

  describe('scopes', () => {
    it('services:read reads the service and its billing rates but does not write', async () => {
      const reader = await cell.mint(['services:read']);
      const s = await create({ defaultRate: { amount: '90', currency: 'EUR' } });
      assert.equal((await call('GET', `${PATH}/${s.id}`, reader)).status, 200);
      assert.equal((await call('GET', PATH, reader)).status, 200);
      const rates = await call<{ data: Rates }>('GET', `${PATH}/${s.id}/billing-rates`, reader);
      assert.equal(rates.status, 200);
      assertShape('getServiceBillingRates', rates.body.data);
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, reader, { expectedVersion: s.version, name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('PUT', `${PATH}/${s.id}/billing-rates`, reader, { expectedVersion: s.version, rates: [] }), 403, 'insufficient_scope');
      assertProblem(await call('POST', PATH, reader, { name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `${PATH}/${s.id}`, reader), 403, 'insufficient_scope');
      assert.equal((await row(s.id)).revision, 1);
    });
  });

  describe('tenancy', () => {
    it('another workspace’s service answers exactly like a missing one (404) and is never changed or listed', async () => {
      for (const id of [other.serviceId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `${PATH}/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `${PATH}/${id}`, cell.admin, { expectedVersion: '1', name: 'Hijacked' }), 404, 'not_found');
        assertProblem(await call('DELETE', `${PATH}/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `${PATH}/${id}/restore`, cell.admin), 404, 'not_found');
        assertProblem(await call('GET', `${PATH}/${id}/billing-rates`, cell.admin), 404, 'not_found');
        assertProblem(await call('PUT', `${PATH}/${id}/billing-rates`, cell.admin, { expectedVersion: '1', rates: [] }), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.service.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.serviceId } });
      assert.deepEqual([foreign.name, foreign.revision, foreign.archivedAt], ['Foreign service', 1, null]);
      assert.ok(!(await listAll(`${PATH}?limit=200`)).some((s) => s.id === other.serviceId));
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.serviceId } }), 0);
    });
  });

  describe('services', () => {
    it('creates a service: 201, Location, strong ETag, the registry shape and service.created in the outbox', async () => {
      const reply = await call<{ data: Service }>('POST', PATH, cell.admin, { name: '  Consulting ', description: 'Hourly', defaultRate: { amount: '120.5', currency: 'EUR' } });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const s = reply.body.data;
      assert.equal(reply.headers.get('location'), `${PATH}/${s.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createService', s);
      assert.deepEqual(
        { name: s.name, description: s.description, billable: s.billable, defaultRate: s.defaultRate, version: s.version, archivedAt: s.archivedAt },
        { name: 'Consulting', description: 'Hourly', billable: true, defaultRate: { amount: '120.5', currency: 'EUR' }, version: '1', archivedAt: null },
      );
      assert.deepEqual(
        (await cell.outbox(s.id)).map((e) => [e.eventType, e.aggregateType]),
        [['service.created', 'service']],
      );
      const got = await call<{ data: Service }>('GET', `${PATH}/${s.id}`, cell.admin);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getService', got.body.data);
      assert.deepEqual(got.body.data, s);
      const plain = await create({ billable: false });
      assert.deepEqual([plain.billable, plain.defaultRate, plain.description], [false, null, null]);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await cell.database.prisma.service.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', PATH, cell.admin, {}), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', PATH, cell.admin, { name: '  ' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', PATH, cell.admin, { name: 'x', billable: 'yes' }), 400, 'validation_failed', '/billable');
      assertProblem(await call('POST', PATH, cell.admin, { name: 'x', defaultRate: { amount: '-1', currency: 'EUR' } }), 400, 'validation_failed', '/defaultRate/amount');
      assertProblem(await call('POST', PATH, cell.admin, { name: 'x', defaultRate: { amount: '1.12345', currency: 'EUR' } }), 400, 'validation_failed', '/defaultRate/amount');
      assertProblem(await call('POST', PATH, cell.admin, { name: 'x', defaultRate: { amount: '12345678901', currency: 'EUR' } }), 400, 'validation_failed', '/defaultRate/amount');
      assertProblem(await call('POST', PATH, cell.admin, { name: 'x', defaultRate: { amount: '1', currency: 'euro' } }), 400, 'validation_failed', '/defaultRate/currency');
      assertProblem(await call('POST', PATH, cell.admin, { name: 'x', colour: 'red' }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.service.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `service-${randomUUID()}`;
      const first = await call<{ data: Service }>('POST', PATH, cell.admin, { name: 'Idempotent service' }, { 'idempotency-key': key });
      const second = await call<{ data: Service }>('POST', PATH, cell.admin, { name: 'Idempotent service' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.service.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent service' } }), 1);
      assertProblem(await call('POST', PATH, cell.admin, { name: 'Other' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates compare-and-set: the version moves on, a stale one is 409 version_conflict, concurrent writers: exactly one wins', async () => {
      const s = await create({ defaultRate: { amount: '50', currency: 'EUR' } });
      const reply = await call<{ data: Service }>('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: s.version, name: 'Renamed', billable: false, defaultRate: null });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateService', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.name, reply.body.data.billable, reply.body.data.defaultRate, reply.body.data.version], ['Renamed', false, null, '2']);
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: s.version, name: 'stale' }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { name: 'no version' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2', defaultRate: { amount: '-5', currency: 'EUR' } }), 400, 'validation_failed', '/defaultRate/amount');
      const replies = await Promise.all(
        Array.from({ length: 4 }, (_, i) => call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2', name: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409, 409]);
      assert.equal((await row(s.id)).revision, 3);
      assert.equal((await cell.outbox(s.id, 'service.updated')).length, 2);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const s = await create();
      assert.equal((await call('DELETE', `${PATH}/${s.id}`, cell.admin)).status, 204);
      assert.ok(!(await listAll(`${PATH}?limit=200`)).some((x) => x.id === s.id));
      assert.ok((await call<{ data: Service }>('GET', `${PATH}/${s.id}`, cell.admin)).body.data.archivedAt !== null);
      assert.equal((await call('DELETE', `${PATH}/${s.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Service }>('POST', `${PATH}/${s.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreService', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.ok((await listAll(`${PATH}?limit=200`)).some((x) => x.id === s.id));
      assert.deepEqual(
        (await cell.outbox(s.id)).map((e) => e.eventType),
        ['service.created', 'service.archived', 'service.restored'],
      );
    });

    it('pages with a cursor without gaps or repeats; bad cursors and limits are 400', async () => {
      const made: Service[] = [];
      for (let i = 0; i < 5; i++) made.push(await create({ name: `Pager ${i}` }));
      const first = await call<ListBody<Service>>('GET', `${PATH}?limit=2`, cell.admin);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listServices', item);
      const all = await listAll(`${PATH}?limit=2`);
      assert.equal(new Set(all.map((s) => s.id)).size, all.length);
      assert.deepEqual(
        all.filter((s) => made.some((m) => m.id === s.id)).map((s) => s.id),
        made.map((m) => m.id),
      );
      assertProblem(await call('GET', `${PATH}?cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', `${PATH}?limit=0`, cell.admin)).status, 400);
      assert.equal((await call('GET', `${PATH}?unknown=1`, cell.admin)).status, 400);
    });
  });

  describe('billing rates', () => {
    it('a new service has no rates; a replacement sets the whole set atomically, moves the version on and writes one event', async () => {
      const s = await create();
      const empty = await call<{ data: Rates }>('GET', `${PATH}/${s.id}/billing-rates`, cell.admin);
      assert.equal(empty.status, 200);
      assert.equal(empty.headers.get('etag'), '"1"');
      assert.deepEqual(empty.body.data, { serviceId: s.id, rates: [], version: '1' });
      const rates = [
        { memberId, validFrom: '2026-01-01', rate: { amount: '110', currency: 'EUR' } },
        { memberId: null, validFrom: '2026-01-01', rate: { amount: '100', currency: 'EUR' } },
        { memberId: null, validFrom: '2025-01-01', rate: { amount: '90.1234', currency: 'EUR' } },
      ];
      const replaced = await call<{ data: Rates }>('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '1', rates });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assertShape('replaceServiceBillingRates', replaced.body.data);
      assert.equal(replaced.headers.get('etag'), '"2"');
      assert.deepEqual(replaced.body.data, { serviceId: s.id, version: '2', rates: [rates[2], rates[1], rates[0]] });
      assert.deepEqual((await call<{ data: Rates }>('GET', `${PATH}/${s.id}/billing-rates`, cell.admin)).body.data, replaced.body.data);
      assert.equal((await call<{ data: Service }>('GET', `${PATH}/${s.id}`, cell.admin)).body.data.version, '2', 'one version for the service and its rates');
      const second = await call<{ data: Rates }>('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '2', rates: [rates[1]] });
      assert.equal(second.status, 200);
      assert.deepEqual(second.body.data.rates, [rates[1]]);
      assert.equal(await rateRows(s.id), 1, 'the whole set is replaced');
      assert.deepEqual((await cell.outbox(s.id, 'service.billing_rates_replaced')).length, 2);
      const cleared = await call<{ data: Rates }>('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '3', rates: [] });
      assert.deepEqual(cleared.body.data.rates, []);
      assert.equal(await rateRows(s.id), 0);
    });

    it('a stale version is 409 version_conflict; of concurrent replacements on one version exactly one wins', async () => {
      const s = await create();
      const rate = (amount: string) => ({ memberId: null, validFrom: '2026-01-01', rate: { amount, currency: 'EUR' } });
      const replies = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          call('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '1', rates: [rate(`${i + 1}0`), { ...rate('5'), validFrom: '2027-01-01' }] }, {}, i % 2 ? cell.v1b : cell.v1),
        ),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409, 409]);
      for (const r of replies.filter((x) => x.status === 409)) assert.equal(errorOf(r).code, 'version_conflict');
      assert.equal(await rateRows(s.id), 2, 'exactly one set, never a mix');
      assertProblem(await call('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '1', rates: [] }), 409, 'version_conflict');
      assert.equal(await rateRows(s.id), 2);
      // An attribute update moves the shared version on too.
      await call('PATCH', `${PATH}/${s.id}`, cell.admin, { expectedVersion: '2', name: 'Renamed' });
      assertProblem(await call('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '2', rates: [] }), 409, 'version_conflict');
    });

    it('refuses invalid sets with 400 and a pointer (foreign or unknown member, duplicates, bad rates) and writes nothing', async () => {
      const s = await create();
      await call('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '1', rates: [{ memberId: null, validFrom: '2026-01-01', rate: { amount: '1', currency: 'EUR' } }] });
      const ok = { memberId: null, validFrom: '2026-06-01', rate: { amount: '10', currency: 'EUR' } };
      const cases: [unknown[], string][] = [
        [[ok, { ...ok, memberId: other.memberId }], '/rates/1/memberId'],
        [[{ ...ok, memberId: randomUUID() }], '/rates/0/memberId'],
        [[{ ...ok, memberId: 'nobody' }], '/rates/0/memberId'],
        [[ok, { ...ok, rate: { amount: '11', currency: 'EUR' } }], '/rates/1'],
        [[{ ...ok, rate: { amount: '-1', currency: 'EUR' } }], '/rates/0/rate/amount'],
        [[{ ...ok, validFrom: '2026-13-01' }], '/rates/0/validFrom'],
        [[{ ...ok, extra: true }], '/rates/0'],
      ];
      for (const [rates, pointer] of cases) {
        assertProblem(await call('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { expectedVersion: '2', rates }), 400, 'validation_failed', pointer);
      }
      assertProblem(await call('PUT', `${PATH}/${s.id}/billing-rates`, cell.admin, { rates: [] }), 400, 'validation_failed', '/expectedVersion');
      assert.equal((await row(s.id)).revision, 2);
      assert.equal(await rateRows(s.id), 1);
    });
  });

  describe('resource grants', () => {
    it('a service account sees only granted services; a read grant cannot write; creating needs a type-wide write grant', async () => {
      const a = await create();
      const b = await create();
      const { token } = await cell.serviceAccount(['services:read', 'services:write'], [{ resourceType: 'service', resourceId: a.id, access: 'read' }]);
      assert.deepEqual(
        (await listAll(`${PATH}?limit=200`, token)).map((s) => s.id),
        [a.id],
      );
      assert.equal((await call('GET', `${PATH}/${a.id}`, token)).status, 200);
      assert.equal((await call('GET', `${PATH}/${a.id}/billing-rates`, token)).status, 200);
      assertProblem(await call('GET', `${PATH}/${b.id}`, token), 404, 'not_found');
      assertProblem(await call('GET', `${PATH}/${b.id}/billing-rates`, token), 404, 'not_found');
      assertProblem(await call('PATCH', `${PATH}/${a.id}`, token, { expectedVersion: a.version, name: 'x' }), 403, 'insufficient_grant');
      assertProblem(await call('PUT', `${PATH}/${a.id}/billing-rates`, token, { expectedVersion: a.version, rates: [] }), 403, 'insufficient_grant');
      assertProblem(await call('DELETE', `${PATH}/${a.id}`, token), 403, 'insufficient_grant');
      assertProblem(await call('POST', PATH, token, { name: 'x' }), 403, 'insufficient_grant');
      assert.equal((await row(a.id)).revision, 1);
      const writer = await cell.serviceAccount(['services:read', 'services:write'], [{ resourceType: 'service', resourceId: null, access: 'write' }]);
      assert.equal((await call('POST', PATH, writer.token, { name: 'By the writer' })).status, 201);
      assert.equal((await call('PATCH', `${PATH}/${b.id}`, writer.token, { expectedVersion: b.version, name: 'granted' })).status, 200);
    });
  });
});
