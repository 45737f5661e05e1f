import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { V1_SCOPES } from '@workcell/credentials';
import { appendOutboxEvent, inTransaction } from '@workcell/db';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi } from './support/v1.js';

/**
 * The owner's actions on a subscription through PATCH /v1/webhooks/{id} (issue 26, docs/webhooks.md "Delivery"):
 * rotating the signing secret (both signatures until the old one expires, verified with the standardwebhooks
 * library), recovering failed deliveries, sending a test event; and what the delivery history keeps of each attempt.
 */
const env = useTestEnvironment({ WEBHOOK_RETRY_SCHEDULE: '100ms', WEBHOOK_DELIVERY_TIMEOUT_MS: '2000' });

interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

describe('webhook actions: rotate, recover, test event; the history', () => {
  const cell = useV1Cell(env);
  let server: Server;
  let base: string;
  const received: Received[] = [];
  /** Paths that answer 503 until they are healed. */
  const failing = new Set<string>(['/down']);
  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) => callApi<T>(cell.v1, method, path, token, body);
  const subscribe = async (path: string, eventTypes: string[], token = cell.admin) => {
    const reply = await call<{ data: { id: string; signingSecret: string; version: string } }>('POST', '/v1/webhooks', token, { url: `${base}${path}`, eventTypes });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const versionOf = async (id: string) => (await call<{ data: { version: string } }>('GET', `/v1/webhooks/${id}`, cell.admin)).body.data.version;
  const emit = async (eventType: string) =>
    inTransaction(cell.database, async (tx) => {
      const aggregateId = randomUUID();
      await appendOutboxEvent(tx, { actor: null, cause: null, workspaceId: cell.workspaceId, aggregateType: eventType.split('.')[0]!, aggregateId, eventType, payload: { note: 'x' } });
      return (await tx.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, aggregateId } })).id;
    });
  const deliveriesOf = (subscriptionId: string) => cell.database.prisma.webhookDelivery.findMany({ where: { workspaceId: cell.workspaceId, subscriptionId }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, headers: req.headers as Record<string, string>, body });
        if (failing.has(path)) return void res.writeHead(503, { 'retry-after': '5' }).end('down for maintenance');
        // A 2 KB answer with a header of its own: the history keeps the headers and the first KB.
        res.writeHead(200, { 'content-type': 'text/plain', 'x-receiver': 'local' }).end('é'.repeat(1024));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('rotateSigningSecret answers the new secret once; deliveries carry both signatures until the old one expires', async () => {
    const hook = await subscribe('/rotate', ['tag.created']);
    const rotated = await call<{ data: { signingSecret: string; previousSecretExpiresAt: string; version: string } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, {
      expectedVersion: hook.version,
      rotateSigningSecret: true,
      previousSecretExpiresInSeconds: 3600,
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.equal(rotated.headers.get('cache-control'), 'private, no-store');
    assertShape('updateWebhook', rotated.body.data);
    const fresh = rotated.body.data.signingSecret;
    assert.match(fresh, /^whsec_/);
    assert.notEqual(fresh, hook.signingSecret);
    const expires = new Date(rotated.body.data.previousSecretExpiresAt).getTime();
    assert.ok(Math.abs(expires - (Date.now() + 3_600_000)) < 60_000);
    const shown = (await call<{ data: Record<string, unknown> }>('GET', `/v1/webhooks/${hook.id}`, cell.admin)).body.data;
    assert.equal(shown['signingSecret'], undefined, 'the secret is shown once');
    const eventId = await emit('tag.created');
    const got = await waitFor('the delivery', () => received.find((r) => r.path === '/rotate' && r.headers['webhook-id'] === eventId));
    assert.equal(got.headers['webhook-signature']!.split(' ').length, 2, 'two signatures');
    // A receiver still on the old secret and one already on the new verify the same message.
    new Webhook(hook.signingSecret).verify(got.body, got.headers);
    new Webhook(fresh).verify(got.body, got.headers);

    // Rotating again with no overlap: only the newest secret signs; the others no longer verify.
    const again = await call<{ data: { signingSecret: string; previousSecretExpiresAt: string | null } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, {
      expectedVersion: rotated.body.data.version,
      rotateSigningSecret: true,
      previousSecretExpiresInSeconds: 0,
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.data.previousSecretExpiresAt, null);
    const next = await emit('tag.created');
    const later = await waitFor('the next delivery', () => received.find((r) => r.headers['webhook-id'] === next));
    assert.equal(later.headers['webhook-signature']!.split(' ').length, 1);
    new Webhook(again.body.data.signingSecret).verify(later.body, later.headers);
    assert.throws(() => new Webhook(fresh).verify(later.body, later.headers));
    assert.throws(() => new Webhook(hook.signingSecret).verify(later.body, later.headers));
    const audit = await cell.database.prisma.auditEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, targetId: hook.id, action: 'webhook.updated' }, orderBy: { occurredAt: 'asc' } });
    assert.equal((audit.metadata as { actions: { rotatedSigningSecret: boolean } }).actions.rotatedSigningSecret, true);
    assert.ok(!JSON.stringify(audit.metadata).includes('whsec_'), 'no secret in the audit');
  });

  it('recoverSince attempts every failed delivery since then once more, oldest first; a disabled subscription needs re-enabling with it', async () => {
    const hook = await subscribe('/down', ['list.created']);
    const first = await emit('list.created');
    const second = await emit('list.created');
    await waitFor('both deliveries to fail', async () => (await deliveriesOf(hook.id)).filter((d) => d.status === 'failed').length === 2);
    // Each has made its two attempts, unless the subscription was disabled as failing for the whole schedule first
    // (two consecutive failures over at least the schedule's span: on a busy machine the first delivery's retry can
    // come after the second's first attempt), which ends the other delivery after one attempt.
    const attemptsBefore = (await deliveriesOf(hook.id)).map((d) => d.attempt);
    const before = received.filter((r) => r.path === '/down').length;
    failing.delete('/down');
    const since = new Date(Date.now() - 3_600_000).toISOString();
    // Disabled meanwhile: recovery alone is refused with a pointer; with status active it goes through.
    const disabled = await call<{ data: { version: string } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: await versionOf(hook.id), status: 'disabled' });
    assert.equal(disabled.status, 200);
    const refused = await call('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: disabled.body.data.version, recoverSince: since });
    assertProblem(refused, 400, 'validation_failed');
    const recovered = await call<{ data: { recoveredDeliveries: number; status: string } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, {
      expectedVersion: disabled.body.data.version,
      status: 'active',
      recoverSince: since,
    });
    assert.equal(recovered.status, 200, JSON.stringify(recovered.body));
    assert.deepEqual([recovered.body.data.recoveredDeliveries, recovered.body.data.status], [2, 'active']);
    const rows = await waitFor('the recovered deliveries to succeed', async () => {
      const all = await deliveriesOf(hook.id);
      return all.every((d) => d.status === 'succeeded') && all;
    });
    assert.deepEqual(
      rows.map((d) => d.attempt),
      attemptsBefore.map((attempt) => attempt + 1),
      'one more attempt each, after those the delivery had made',
    );
    const resent = received
      .filter((r) => r.path === '/down')
      .slice(before)
      .map((r) => r.headers['webhook-id']);
    // Each once; not in a given order: both are within the subscription's share, so they are sent at once and may
    // arrive either way (oldest first at the share: webhook-dispatcher.test.ts).
    assert.deepEqual([...resent].sort(), [first, second].sort(), 'each once');
    // The window: not in the future, at most 30 days back.
    const version = await versionOf(hook.id);
    assertProblem(await call('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: version, recoverSince: new Date(Date.now() + 60_000).toISOString() }), 400, 'validation_failed');
    assertProblem(
      await call('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: version, recoverSince: new Date(Date.now() - 31 * 86_400_000).toISOString() }),
      400,
      'validation_failed',
    );
    const none = await call<{ data: { recoveredDeliveries: number } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: version, recoverSince: since });
    assert.equal(none.body.data.recoveredDeliveries, 0, 'nothing failed any more');
  });

  it('sendTestEvent sends one signed webhook.test delivery, recorded in the history with what was sent and answered', async () => {
    const hook = await subscribe('/test', ['contact.created']);
    const reply = await call<{ data: { testDeliveryId: string } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: hook.version, sendTestEvent: true });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const deliveryId = reply.body.data.testDeliveryId;
    const got = await waitFor('the test delivery', () => received.find((r) => r.path === '/test'));
    const body = new Webhook(hook.signingSecret).verify(got.body, got.headers) as { type: string; data: { resourceType: string; resourceId: string; payload: unknown } };
    assert.equal(body.type, 'webhook.test');
    assert.deepEqual([body.data.resourceType, body.data.resourceId, body.data.payload], ['webhooks', hook.id, { webhook: { id: hook.id } }]);
    const item = await waitFor('the delivery to succeed', async () => {
      const one = await call<{ data: { status: string; eventType: string; request: { headers: Record<string, string> }; response: { headers: Record<string, string>; body: string } } }>(
        'GET',
        `/v1/webhooks/${hook.id}/deliveries/${deliveryId}`,
        cell.admin,
      );
      return one.body.data.status === 'succeeded' && one.body.data;
    });
    assertShape('getWebhookDelivery', item);
    assert.equal(item.eventType, 'webhook.test');
    assert.equal(item.request.headers['webhook-id'], got.headers['webhook-id']);
    assert.equal(item.request.headers['webhook-signature'], got.headers['webhook-signature']);
    assert.equal(item.request.headers['user-agent'], 'Workcell-Webhooks/1');
    assert.equal(item.response.headers['x-receiver'], 'local');
    assert.equal(Buffer.byteLength(item.response.body), 1024, 'the first KB of the 2 KB answer');
    assert.equal(item.response.body, 'é'.repeat(512));
    // Only that subscription gets it, whatever the others subscribe to; the change feed does not list it.
    const wildcard = await subscribe('/all', ['*']);
    assert.equal((await deliveriesOf(wildcard.id)).length, 0);
    assert.equal(await cell.database.prisma.webhookDelivery.count({ where: { workspaceId: cell.workspaceId, eventType: 'webhook.test' } }), 1);
  });

  it('a failed attempt keeps the receiver’s answer; the actions are the owner’s alone', async () => {
    failing.add('/refusing');
    const hook = await subscribe('/refusing', ['service.created']);
    await emit('service.created');
    const item = await waitFor('the delivery to fail', async () => {
      const list = await call<{ data: { status: string; response: { headers: Record<string, string>; body: string } | null; failureReason: string }[] }>(
        'GET',
        `/v1/webhooks/${hook.id}/deliveries`,
        cell.admin,
      );
      return list.body.data[0]?.status === 'failed' && list.body.data[0];
    });
    assert.deepEqual([item.failureReason, item.response?.body, item.response?.headers['retry-after']], ['http_status', 'down for maintenance', '5']);
    // Another credential of the same member (an administrator) may only disable it: no action is its to take.
    const other = await cell.mint(V1_SCOPES);
    const version = await versionOf(hook.id);
    for (const action of [{ rotateSigningSecret: true }, { sendTestEvent: true }, { recoverSince: new Date().toISOString() }]) {
      assertProblem(await call('PATCH', `/v1/webhooks/${hook.id}`, other, { expectedVersion: version, ...action }), 403, 'forbidden');
    }
    // previousSecretExpiresInSeconds goes with a rotation; a disabled subscription gets no test event.
    assertProblem(await call('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: version, previousSecretExpiresInSeconds: 60 }), 400, 'validation_failed');
    const off = await call<{ data: { version: string } }>('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: version, status: 'disabled' });
    assertProblem(await call('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: off.body.data.version, sendTestEvent: true }), 400, 'validation_failed');
    assertProblem(
      await call('PATCH', `/v1/webhooks/${hook.id}`, cell.admin, { expectedVersion: off.body.data.version, rotateSigningSecret: true, previousSecretExpiresInSeconds: 8 * 86_400 }),
      400,
      'validation_failed',
    );
  });
});
