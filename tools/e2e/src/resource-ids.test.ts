import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { callApi } from './support/v1.js';
import { callV0, useV0Cell } from './support/v0.js';

/**
 * Issue 24: a resource id in a path is one id however its UUID is cased. The edge rewrites it to its canonical
 * spelling (lower case) before the rate limit, the gate and the handler (libs/http resource-ids.ts), so what the
 * platform records (audit entries, events) and answers carries that spelling. The rate-limit side (one v0 budget
 * per canonical path) is in rate-limit.test.ts.
 */

const env = useTestEnvironment();

describe('resource ids in their canonical spelling at the edge', () => {
  const cell = useV0Cell(env, { v1: true });

  /** Every outbox event and audit entry of the workspace, as text, to look for a spelling in. */
  const recorded = async () => {
    const events = await cell.database.prisma.outboxEvent.findMany({ where: { workspaceId: cell.workspaceId } });
    const audit = await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId } });
    return JSON.stringify([events, audit], (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
  };

  it('v0: a write through an upper-case id records the lower-case id; an unavailable operation links to it', async () => {
    const token = await cell.teamToken();
    const created = await callV0<{ _id: string }>(cell.v0, 'POST', '/tasks', token, { title: 'Cased' });
    assert.equal(created.status, 201, created.text);
    const id = created.body._id;
    const upper = id.toUpperCase();
    const updated = await callV0<{ _id: string; title: string }>(cell.v0, 'PUT', `/tasks/${upper}`, token, { title: 'Cased again' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body._id, id);
    const started = await callV0<{ _id: string }>(cell.v0, 'POST', `/tasks/${upper}/startTracking`, token, {});
    assert.equal(started.status, 200, started.text);
    const events = await cell.database.prisma.outboxEvent.findMany({ where: { workspaceId: cell.workspaceId, aggregateId: id, eventType: 'task.updated' } });
    assert.ok(events.length >= 1, 'the update is recorded under the canonical id');
    assert.ok(!(await recorded()).includes(upper), 'no event or audit entry carries the upper-case spelling');
    // The successor Link of an unavailable operation names the resource as v1 spells it.
    const group = randomUUID();
    const refused = await callV0(cell.v0, 'PUT', `/contactgroups/${group.toUpperCase()}`, token, {});
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.headers.get('link'), `<${cell.config.baseUrls.v1}/v1/contact-groups/${group}>; rel="successor-version"`);
  });

  it('v1: an audited write through an upper-case path id records the lower-case id', async () => {
    const pat = await cell.mint(['service-accounts:write', 'resource-grants:read', 'resource-grants:write']);
    const account = await callApi<{ data: { id: string } }>(cell.v1, 'POST', '/v1/service-accounts', pat, { name: 'Cased account' });
    assert.equal(account.status, 201, JSON.stringify(account.body));
    const id = account.body.data.id;
    const upper = id.toUpperCase();
    const current = await callApi<{ data: { version: string } }>(cell.v1, 'GET', `/v1/service-accounts/${upper}/resource-grants`, pat);
    assert.equal(current.status, 200, JSON.stringify(current.body));
    const replaced = await callApi<{ data: { serviceAccountId: string } }>(cell.v1, 'PUT', `/v1/service-accounts/${upper}/resource-grants`, pat, {
      expectedVersion: current.body.data.version,
      grants: [],
    });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.equal(replaced.body.data.serviceAccountId, id);
    const audit = await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, action: 'service_account.resource_grants_replaced' } });
    assert.deepEqual(
      audit.map((entry) => entry.targetId),
      [id],
    );
    assert.ok(!(await recorded()).includes(upper), 'no event or audit entry carries the upper-case spelling');
  });
});
