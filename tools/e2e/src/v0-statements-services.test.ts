import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { callV0, type LegacyReply as Reply, useV0Cell } from './support/v0.js';

/**
 * v0 journal entries (GET /journalEntries, GET /journalEntries/{_id}) and services (GET /services,
 * GET /services/{_id}) over the v1 project-statement and service procedures, end to end: the legacy shapes, the
 * token's team, paging, archived rows gone for v0, and what v0 shows of the finance overlay (everything: v0 has
 * no scopes, as the frozen contract did).
 */

const env = useTestEnvironment();

type LegacyError = { error: { code: string; message: string } };
type Money = { amount: string; currency: string };
type LegacyStatement = { _id: string; kind: string; projectId: string; unitPrice: Money; purchasePrice?: Money | null; archivedAt: string | null };
type LegacyService = { _id: string; name: string; defaultRate: Money | null; archivedAt: string | null };

describe('v0 journal entries and services over the v1 procedures', () => {
  const cell = useV0Cell(env, { v1: true });
  const { teamToken } = cell;
  let projectId: string;
  const other = { workspaceId: '', statementId: '', serviceId: '', token: '' };

  const get = <T = unknown>(path: string, token: string) => callV0<T>(cell.v0, 'GET', path, token);
  const legacyError = (reply: Reply): LegacyError['error'] => {
    const error = (reply.body as LegacyError | undefined)?.error;
    assert.ok(error && typeof error.code === 'string', `expected the legacy error shape, got ${reply.status} ${reply.text}`);
    return error;
  };
  const statement = (data: Record<string, unknown> = {}, ws = cell.workspaceId, project = projectId) =>
    cell.database.prisma.projectStatement.create({
      data: { workspaceId: ws, projectId: project, kind: 'expense', occurredOn: new Date('2026-02-01'), quantity: '1', amount: '10', currency: 'EUR', ...data },
    });

  beforeAll(async () => {
    projectId = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Journal project' } })).id;
    other.workspaceId = await cell.otherWorkspace();
    const foreignProject = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign project' } })).id;
    other.statementId = (await statement({}, other.workspaceId, foreignProject)).id;
    other.serviceId = (await cell.database.prisma.service.create({ data: { workspaceId: other.workspaceId, name: 'Foreign service' } })).id;
    other.token = await teamToken(null, other.workspaceId);
  });

  describe('journal entries', () => {
    it('GET /journalEntries lists the team’s entries as legacy objects, budget entries and purchasePrice included', async () => {
      const token = await teamToken();
      const expense = await statement({ purchasePrice: '4.5', purchaseCurrency: 'EUR' });
      const budget = await statement({ kind: 'budget', amount: '1000' });
      const reply = await get<LegacyStatement[]>('/journalEntries?limit=500', token);
      assert.equal(reply.status, 200, reply.text);
      assert.ok(Array.isArray(reply.body));
      const byId = new Map(reply.body.map((s) => [s._id, s]));
      assert.deepEqual(byId.get(expense.id)?.purchasePrice, { amount: '4.5', currency: 'EUR' });
      assert.equal(byId.get(budget.id)?.kind, 'budget');
      assert.equal(byId.get(budget.id)?.purchasePrice, null);
      assert.ok(!byId.has(other.statementId), 'never another team’s entry');
      for (const item of reply.body) assert.ok(!('id' in item) && typeof item._id === 'string');
    });

    it('GET /journalEntries pages by page/limit in creation order and validates them (400)', async () => {
      const token = await teamToken();
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await statement()).id);
      const all = (await get<LegacyStatement[]>('/journalEntries?limit=500', token)).body.map((s) => s._id);
      assert.deepEqual(all, [...all].sort());
      const page2 = await get<LegacyStatement[]>('/journalEntries?page=2&limit=2', token);
      assert.deepEqual(
        page2.body.map((s) => s._id),
        all.slice(2, 4),
      );
      assert.deepEqual((await get<LegacyStatement[]>('/journalEntries?page=1000&limit=500', token)).body, []);
      for (const query of ['page=0', 'page=x', 'limit=0', 'limit=501']) {
        const bad = await get(`/journalEntries?${query}`, token);
        assert.equal(bad.status, 400, query);
        assert.equal(legacyError(bad).code, 'invalid_request');
      }
    });

    it('GET /journalEntries/{_id} returns one entry (a budget one too); missing, foreign and archived ones are 404; 401 without a valid token', async () => {
      const token = await teamToken();
      const budget = await statement({ kind: 'budget', purchasePrice: '3', purchaseCurrency: 'USD' });
      const reply = await get<LegacyStatement>(`/journalEntries/${budget.id}`, token);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body._id, reply.body.kind, reply.body.purchasePrice], [budget.id, 'budget', { amount: '3', currency: 'USD' }]);
      const archived = await statement({ archivedAt: new Date() });
      for (const id of [other.statementId, randomUUID(), 'nope', archived.id]) {
        const missing = await get(`/journalEntries/${id}`, token);
        assert.equal(missing.status, 404, id);
        assert.equal(legacyError(missing).code, 'not_found');
      }
      assert.ok(!(await get<LegacyStatement[]>('/journalEntries?limit=500', token)).body.some((s) => s._id === archived.id));
      assert.equal((await get(`/journalEntries/${budget.id}`, 'wc_v0_not-a-token')).status, 401);
      assert.equal((await get(`/journalEntries/${budget.id}`, other.token)).status, 404, 'another team’s token sees nothing of this team');
    });
  });

  describe('services', () => {
    it('GET /services lists the team’s unarchived services as legacy objects and validates page/limit', async () => {
      const token = await teamToken();
      const s = await cell.database.prisma.service.create({ data: { workspaceId: cell.workspaceId, name: 'Design', billingRate: '95.5', currency: 'EUR' } });
      const archived = await cell.database.prisma.service.create({ data: { workspaceId: cell.workspaceId, name: 'Old', archivedAt: new Date() } });
      const reply = await get<LegacyService[]>('/services?limit=500', token);
      assert.equal(reply.status, 200, reply.text);
      const found = reply.body.find((x) => x._id === s.id);
      assert.deepEqual([found?.name, found?.defaultRate], ['Design', { amount: '95.5', currency: 'EUR' }]);
      assert.ok(!reply.body.some((x) => x._id === archived.id || x._id === other.serviceId));
      for (const query of ['page=0', 'limit=0', 'limit=501', 'page=x']) {
        const bad = await get(`/services?${query}`, token);
        assert.equal(bad.status, 400, query);
        assert.equal(legacyError(bad).code, 'invalid_request');
      }
    });

    it('GET /services/{_id} returns one service; missing, foreign and archived ones are 404', async () => {
      const token = await teamToken();
      const s = await cell.database.prisma.service.create({ data: { workspaceId: cell.workspaceId, name: 'Support' } });
      const reply = await get<LegacyService>(`/services/${s.id}`, token);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body._id, reply.body.name, reply.body.defaultRate], [s.id, 'Support', null]);
      const archived = await cell.database.prisma.service.create({ data: { workspaceId: cell.workspaceId, name: 'Gone', archivedAt: new Date() } });
      for (const id of [other.serviceId, randomUUID(), 'nope', archived.id]) {
        const missing = await get(`/services/${id}`, token);
        assert.equal(missing.status, 404, id);
        assert.equal(legacyError(missing).code, 'not_found');
      }
      assert.equal((await get(`/services/${s.id}`, other.token)).status, 404);
    });
  });
});
