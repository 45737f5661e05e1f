import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import type { Database } from '@workcell/db';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 integrations end to end: the workspace's service accounts and calendar feeds as installed integrations, their
 * health from the latest webhook delivery attempt, disabled and uninstalled ones, scopes, tenancy, pagination,
 * and never a secret (no verifier, no signing secret, no delivery error text).
 */

const env = useTestEnvironment();

type Integration = { id: string; provider: string; name: string; status: string; installedAt: string; lastSyncAt: string | null; lastError: string | null };

describe('v1 integrations', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let admin: string;

  const call = <T = unknown>(method: string, path: string, token: string) => callApi<T>(cell.v1, method, path, token);
  const get = async (id: string) => {
    const reply = await call<{ data: Integration }>('GET', `/v1/integrations/${id}`, admin);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assertShape('getIntegration', reply.body.data);
    return reply.body.data;
  };

  /** A service account with a (disabled, so the relay leaves it alone) webhook subscription and an event to deliver. */
  const accountWithSubscription = async () => {
    const { serviceAccountId } = await cell.serviceAccount(['projects:read'], []);
    const credential = await database.prisma.credential.findFirstOrThrow({ where: { workspaceId, serviceAccountId } });
    const subscription = await database.prisma.webhookSubscription.create({
      data: {
        workspaceId,
        url: 'https://receiver.example.test/hook',
        secretCiphertext: Buffer.from('ciphertext'),
        secretKeyId: 'k1',
        ownerCredentialId: credential.id,
        status: 'disabled',
        disabledReason: 'administrator',
        disabledAt: new Date(),
      },
    });
    // One delivery per (subscription, event): each delivery is of an event of its own.
    const deliver = async (fields: Record<string, unknown>) => {
      const project = await callApi<{ data: { id: string } }>(cell.v1, 'POST', '/v1/projects', admin, { name: 'Event source' });
      const event = (await cell.outbox(project.body.data.id))[0]!;
      return database.prisma.webhookDelivery.create({
        data: { workspaceId, subscriptionId: subscription.id, ownerCredentialId: credential.id, eventId: event.id, eventType: event.eventType, attempt: 1, ...fields },
      });
    };
    return { serviceAccountId, subscriptionId: subscription.id, deliver };
  };

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId } = cell);
    admin = await cell.mint(V1_SCOPES);
  });

  afterAll(() => cell?.close());

  it('lists the seeded service account and calendar feed, in the registry shape, without secrets', async () => {
    const reply = await call<ListBody<Integration>>('GET', '/v1/integrations', admin);
    assert.equal(reply.status, 200);
    const byProvider = new Map(reply.body.data.map((i) => [i.provider, i]));
    const account = await database.prisma.serviceAccount.findFirstOrThrow({ where: { workspaceId, name: 'Demo integration' } });
    assert.deepEqual(
      { ...byProvider.get('service-account')!, installedAt: undefined },
      { id: account.id, provider: 'service-account', name: 'Demo integration', status: 'active', installedAt: undefined, lastSyncAt: null, lastError: null },
    );
    const feed = await database.prisma.calendarFeedToken.findFirstOrThrow({ where: { workspaceId } });
    assert.equal(byProvider.get('calendar-feed')!.id, feed.id);
    assert.equal(byProvider.get('calendar-feed')!.status, 'active');
    for (const item of reply.body.data) assertShape('listIntegrations', item);
    assert.deepEqual(await get(feed.id), byProvider.get('calendar-feed'));
  });

  it('health follows the latest finished delivery attempt; the delivery’s error text never shows', async () => {
    const { serviceAccountId, deliver } = await accountWithSubscription();
    await deliver({ status: 'pending' });
    assert.deepEqual([(await get(serviceAccountId)).status, (await get(serviceAccountId)).lastError], ['active', null]);
    await deliver({ status: 'failed', failureReason: 'http_status', responseStatusCode: 500, error: 'receiver said: token=hunter2' });
    const failing = await get(serviceAccountId);
    assert.equal(failing.status, 'error');
    assert.match(failing.lastError!, /http_status \(HTTP 500\)/);
    assert.doesNotMatch(JSON.stringify(failing), /hunter2/);
    assert.equal(failing.lastSyncAt, null);
    const deliveredAt = new Date('2026-11-20T10:00:00.000Z');
    await deliver({ status: 'succeeded', responseStatusCode: 204, deliveredAt });
    const healthy = await get(serviceAccountId);
    assert.deepEqual([healthy.status, healthy.lastError, healthy.lastSyncAt], ['active', null, deliveredAt.toISOString()]);
  });

  it('a subscription disabled because its receiver is gone is an error', async () => {
    const { serviceAccountId, subscriptionId } = await accountWithSubscription();
    await database.prisma.webhookSubscription.update({ where: { workspaceId_id: { workspaceId, id: subscriptionId } }, data: { disabledReason: 'receiver_gone' } });
    const item = await get(serviceAccountId);
    assert.equal(item.status, 'error');
    assert.match(item.lastError!, /receiver is gone/);
  });

  it('a disabled service account is disabled; a deleted one and a revoked feed are uninstalled (404, not listed)', async () => {
    const { serviceAccountId } = await cell.serviceAccount(['projects:read'], []);
    await database.prisma.serviceAccount.update({ where: { workspaceId_id: { workspaceId, id: serviceAccountId } }, data: { status: 'disabled', disabledAt: new Date() } });
    assert.equal((await get(serviceAccountId)).status, 'disabled');
    await database.prisma.serviceAccount.update({ where: { workspaceId_id: { workspaceId, id: serviceAccountId } }, data: { archivedAt: new Date() } });
    assertProblem(await call('GET', `/v1/integrations/${serviceAccountId}`, admin), 404, 'not_found');
    const feed = await database.prisma.calendarFeedToken.create({ data: { workspaceId, memberId: cell.ownerMemberId, name: 'Phone', verifier: Buffer.from(`v-${Date.now()}`) } });
    assert.equal((await get(feed.id)).name, 'Phone');
    await database.prisma.calendarFeedToken.update({ where: { workspaceId_id: { workspaceId, id: feed.id } }, data: { revokedAt: new Date() } });
    assertProblem(await call('GET', `/v1/integrations/${feed.id}`, admin), 404, 'not_found');
    const ids = (await listAllPages<Integration>(cell.v1, '/v1/integrations', admin)).map((i) => i.id);
    assert.ok(!ids.includes(serviceAccountId) && !ids.includes(feed.id));
  });

  it('needs integrations:read; another workspace’s integration and a malformed id are 404', async () => {
    assertProblem(await call('GET', '/v1/integrations', await cell.mint(['service-accounts:read'])), 403, 'insufficient_scope');
    const reader = await cell.mint(['integrations:read']);
    assert.equal((await call('GET', '/v1/integrations', reader)).status, 200);
    const other = await cell.otherWorkspace();
    const member = await database.prisma.workspaceMember.create({ data: { workspaceId: other, userId: (await database.prisma.user.create({ data: { email: `o-${other}@x.test`, name: 'O' } })).id } });
    const foreign = await database.prisma.serviceAccount.create({ data: { workspaceId: other, name: 'Foreign', ownerMemberId: member.id } });
    assertProblem(await call('GET', `/v1/integrations/${foreign.id}`, reader), 404, 'not_found');
    assertProblem(await call('GET', '/v1/integrations/not-a-uuid', reader), 404, 'not_found');
  });

  it('pages in creation order without a gap or a repeat', async () => {
    for (let i = 0; i < 3; i++) await cell.serviceAccount(['projects:read'], []);
    const whole = await listAllPages<Integration>(cell.v1, '/v1/integrations?limit=100', admin);
    const paged = await listAllPages<Integration>(cell.v1, '/v1/integrations?limit=2', admin);
    assert.deepEqual(
      paged.map((i) => i.id),
      whole.map((i) => i.id),
    );
    assert.deepEqual(
      whole.map((i) => i.id),
      [...whole.map((i) => i.id)].sort(),
    );
  });
});
