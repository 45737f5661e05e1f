import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { configFrom } from '@workcell/config';
import { V1_SCOPES } from '@workcell/credentials';
import { appendOutboxEvent, inTransaction } from '@workcell/db';
import { attemptDelivery, type DeliverySink, postJson, relayOutbox } from '@workcell/domain';
import { JobQueues, WEBHOOK_SCHEDULE, webhookScheduleDelayMs } from '@workcell/jobs';
import { verifyWebhook, WorkcellWebhookVerificationError } from '@workcell/sdk';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi } from './support/v1.js';

/**
 * Webhook delivery end to end (contract 6 and the docs/webhooks.md "Webhooks" decisions): the worker's relay fans outbox
 * events out, the delivery jobs POST them to a real HTTPS receiver (a self-signed certificate made here with the
 * openssl CLI, trusted by the worker through WEBHOOK_EXTRA_CA_FILE, TLS verification on), signed per Standard
 * Webhooks; retries with backoff; the owner's scopes filter what is sent; legacy v0 webhooks get the unsigned
 * form; and the relay fans each event out once even when runs overlap. Retries are fast through the config.
 */

const dir = mkdtempSync(join(tmpdir(), 'wc-webhooks-'));
/** A self-signed certificate for 127.0.0.1 made with the openssl CLI: its key and certificate files. */
function selfSignedCertificate(name: string): { keyFile: string; certFile: string } {
  const files = { keyFile: join(dir, `${name}-key.pem`), certFile: join(dir, `${name}-cert.pem`) };
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', files.keyFile, '-out', files.certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  return files;
}
const { keyFile, certFile } = selfSignedCertificate('trusted');
// A second self-signed certificate the worker does not trust.
const { keyFile: untrustedKey, certFile: untrustedCert } = selfSignedCertificate('untrusted');

// Three attempts 100 ms apart; a receiver failing for their whole span (200 ms) also has its subscription disabled.
const env = useTestEnvironment({ WEBHOOK_EXTRA_CA_FILE: certFile, WEBHOOK_RETRY_SCHEDULE: '100ms,100ms', WEBHOOK_DELIVERY_TIMEOUT_MS: '2000' });

interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

describe('webhook delivery', () => {
  const cell = useV1Cell(env);
  let server: Server;
  let base: string;
  const received: Received[] = [];
  const hits = new Map<string, number>();

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) => callApi<T>(cell.v1, method, path, token, body);
  const subscribe = async (path: string, eventTypes: string[], token = cell.admin) => {
    const reply = await call<{ data: { id: string; signingSecret: string } }>('POST', '/v1/webhooks', token, { url: `${base}${path}`, eventTypes });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const createTag = async () => {
    const reply = await call<{ data: { id: string } }>('POST', '/v1/tags', cell.admin, { name: `Tag ${randomUUID().slice(0, 8)}` });
    assert.equal(reply.status, 201);
    return reply.body.data.id;
  };
  const eventOf = async (aggregateId: string, type: string) => (await cell.outbox(aggregateId, type))[0]!;
  const deliveriesOf = (subscriptionId: string) => cell.database.prisma.webhookDelivery.findMany({ where: { workspaceId: cell.workspaceId, subscriptionId }, orderBy: { id: 'asc' } });
  /** Appends events straight to the outbox, as a domain write would. */
  const emit = async (events: { aggregateType: string; eventType: string; payload: object }[]) =>
    inTransaction(cell.database, async (tx) => {
      const ids: string[] = [];
      for (const e of events) {
        const aggregateId = randomUUID();
        await appendOutboxEvent(tx, { actor: null, cause: null, workspaceId: cell.workspaceId, aggregateId, ...e });
        ids.push((await tx.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, aggregateId } })).id);
      }
      return ids;
    });
  const published = (ids: string[]) =>
    waitFor(
      'the events to be published',
      async () => (await cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, id: { in: ids }, publishedAt: { not: null } } })) === ids.length,
    );

  beforeAll(async () => {
    server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, headers: req.headers as Record<string, string>, body });
        const n = (hits.get(path) ?? 0) + 1;
        hits.set(path, n);
        const status = path === '/fail' ? 500 : path === '/gone' ? 410 : path === '/flaky' && n === 1 ? 500 : 200;
        // The first request to /slow answers only after the worker's 2 s timeout.
        setTimeout(() => res.writeHead(status).end(), path === '/slow' && n === 1 ? 3_000 : 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('delivers a signed event that verifies with the one-time secret; history shows it to the owner only', async () => {
    const hook = await subscribe('/ok', ['tag.created']);
    const tagId = await createTag();
    const event = await eventOf(tagId, 'tag.created');
    const got = await waitFor('the delivery', async () => received.find((r) => r.path === '/ok' && r.headers['webhook-id'] === event.id));
    assert.match(got.headers['webhook-signature']!, /^v1,/);
    assert.match(got.headers['webhook-timestamp']!, /^\d+$/);
    assert.equal(got.headers['content-type'], 'application/json');
    // Verified the way integrators do, with the official client's helper (issue 15).
    const verified = verifyWebhook(hook.signingSecret, got.body, got.headers);
    assert.equal(verified.id, event.id);
    assert.equal(verified.type, 'tag.created');
    assert.equal(verified.timestamp, event.occurredAt.toISOString());
    // The change-feed sequence, for ordering and deduplication (issue 10): header and body.
    assert.equal(got.headers['webhook-sequence'], event.sequence.toString());
    assert.equal(verified.sequence, event.sequence.toString());
    assert.equal(verified.data.resourceType, 'tags');
    assert.equal(verified.data.resourceId, tagId);
    assert.equal(verified.data.action, 'created');
    assert.equal((verified.data.payload as { tag: { id: string } }).tag.id, tagId);
    assert.equal((verified.data.payload as { requestId?: string }).requestId, undefined, 'internal request ids are not sent');
    const otherSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    assert.throws(() => verifyWebhook(otherSecret, got.body, got.headers), WorkcellWebhookVerificationError, 'another secret does not verify');
    assert.throws(() => verifyWebhook(hook.signingSecret, got.body.replace('tag.created', 'tag.archived'), got.headers), WorkcellWebhookVerificationError, 'a changed body does not verify');

    const row = await waitFor('the delivery to succeed', async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'succeeded'));
    assert.equal(row.attempt, 1);
    assert.equal(row.responseStatusCode, 200);
    assert.ok(row.deliveredAt !== null && row.responseTimeMs !== null);
    assert.equal((await deliveriesOf(hook.id)).length, 1);

    const list = await call<{ data: { id: string; status: string; attempts: number; responseStatus: number; eventId: string; webhookId: string; failureReason: string | null }[] }>(
      'GET',
      `/v1/webhooks/${hook.id}/deliveries`,
      cell.admin,
    );
    assert.equal(list.status, 200);
    assert.equal(list.body.data.length, 1);
    const item = list.body.data[0]!;
    assertShape('listWebhookDeliveries', item);
    assert.deepEqual([item.status, item.attempts, item.responseStatus, item.eventId, item.webhookId, item.failureReason], ['succeeded', 1, 200, event.id, hook.id, null]);
    assert.deepEqual((await call<{ data: unknown[] }>('GET', `/v1/webhooks/${hook.id}/deliveries?status=failed`, cell.admin)).body.data, []);
    const one = await call<{ data: unknown }>('GET', `/v1/webhooks/${hook.id}/deliveries/${item.id}`, cell.admin);
    assert.equal(one.status, 200);
    assertShape('getWebhookDelivery', one.body.data);

    // Contract 6: another credential, even of the same member with every scope, never sees the history.
    const sibling = await cell.mint(V1_SCOPES);
    assertProblem(await call('GET', `/v1/webhooks/${hook.id}/deliveries`, sibling), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${hook.id}/deliveries/${item.id}`, sibling), 404, 'not_found');
    // That member is a workspace administrator: it sees the subscription's metadata, never its history (issue 10).
    assert.equal((await call('GET', `/v1/webhooks/${hook.id}`, sibling)).status, 200, 'an administrator sees the metadata');
  });

  it('retries a receiver answering 500 then 200 with the same webhook-id and ends succeeded after 2 attempts', async () => {
    const hook = await subscribe('/flaky', ['tag.updated']);
    const tagId = await createTag();
    assert.equal((await call('PATCH', `/v1/tags/${tagId}`, cell.admin, { name: 'Renamed' })).status, 200);
    const event = await eventOf(tagId, 'tag.updated');
    const row = await waitFor('the retried delivery to succeed', async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'succeeded'));
    assert.equal(row.attempt, 2);
    assert.equal(row.responseStatusCode, 200);
    assert.equal(row.error, null);
    assert.equal(row.nextAttemptAt, null);
    const attempts = received.filter((r) => r.path === '/flaky');
    assert.equal(attempts.length, 2);
    assert.ok(
      attempts.every((a) => a.headers['webhook-id'] === event.id),
      'the same webhook-id on every attempt',
    );
    for (const a of attempts) new Webhook(hook.signingSecret).verify(a.body, a.headers);
    const item = (await call<{ data: { attempts: number; status: string; lastAttemptAt: string | null }[] }>('GET', `/v1/webhooks/${hook.id}/deliveries`, cell.admin)).body.data[0]!;
    assert.equal(item.attempts, 2);
    assert.ok(item.lastAttemptAt !== null);
  });

  it('retries an attempt that timed out', async () => {
    const hook = await subscribe('/slow', ['tag.restored']);
    await emit([{ aggregateType: 'tag', eventType: 'tag.restored', payload: { tag: {} } }]);
    const row = await waitFor('the delivery after a timeout', async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'succeeded'));
    assert.equal(row.attempt, 2);
    assert.equal(received.filter((r) => r.path === '/slow').length, 2);
  });

  it('verifies TLS: a receiver whose certificate is not trusted gets nothing and the delivery ends failed', async () => {
    const untrusted = createServer({ key: readFileSync(untrustedKey), cert: readFileSync(untrustedCert) }, (_req, res) => {
      untrustedHits++;
      res.writeHead(200).end();
    });
    let untrustedHits = 0;
    await new Promise<void>((resolve) => untrusted.listen(0, '127.0.0.1', resolve));
    try {
      const reply = await call<{ data: { id: string } }>('POST', '/v1/webhooks', cell.admin, {
        url: `https://127.0.0.1:${(untrusted.address() as AddressInfo).port}/in`,
        eventTypes: ['product_group.created'],
      });
      assert.equal(reply.status, 201);
      await emit([{ aggregateType: 'product_group', eventType: 'product_group.created', payload: { productGroup: {} } }]);
      const row = await waitFor('the delivery to fail', async () => (await deliveriesOf(reply.body.data.id)).find((d) => d.status === 'failed'));
      assert.equal(row.attempt, 3);
      assert.equal(row.responseStatusCode, null);
      assert.match(row.error ?? '', /certificate/i);
      assert.equal(row.failureReason, 'tls');
      assert.equal(untrustedHits, 0);
    } finally {
      untrusted.closeAllConnections();
      await new Promise((r) => untrusted.close(r));
    }
  });

  it('a receiver that always fails ends failed after the configured attempts, with the reason recorded', async () => {
    const hook = await subscribe('/fail', ['tag.archived']);
    const tagId = await createTag();
    assert.equal((await call('DELETE', `/v1/tags/${tagId}`, cell.admin)).status, 204);
    const row = await waitFor('the delivery to fail', async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'failed'));
    assert.equal(row.attempt, 3);
    assert.equal(row.responseStatusCode, 500);
    assert.match(row.error ?? '', /500/);
    assert.equal(row.deliveredAt, null);
    assert.equal(received.filter((r) => r.path === '/fail').length, 3);
    const shown = (await call<{ data: { failureReason: string; failureDetail: string; responseStatus: number }[] }>('GET', `/v1/webhooks/${hook.id}/deliveries`, cell.admin)).body.data[0]!;
    assertShape('listWebhookDeliveries', shown);
    assert.deepEqual([shown.failureReason, shown.responseStatus], ['http_status', 500]);
    assert.match(shown.failureDetail, /500/);
  });

  it('never delivers an event the owner may not read at delivery time (billing, budget statements)', async () => {
    const limited = await cell.mint(['webhooks:read', 'webhooks:write', 'time-entries:read', 'project-statements:read']);
    const hook = await subscribe('/ok', ['time_entry.updated', 'time_entry.billing_set', 'project_statement.created'], limited);
    const full = await subscribe('/ok', ['time_entry.billing_set', 'project_statement.created']);
    const [updated, billing, budget, cost] = await emit([
      { aggregateType: 'time_entry', eventType: 'time_entry.updated', payload: { timeEntry: { note: 'x' } } },
      { aggregateType: 'time_entry', eventType: 'time_entry.billing_set', payload: { billing: { billable: true, billingRate: { amount: '120', currency: 'EUR' } } } },
      { aggregateType: 'project_statement', eventType: 'project_statement.created', payload: { projectStatement: { kind: 'budget' } } },
      { aggregateType: 'project_statement', eventType: 'project_statement.created', payload: { projectStatement: { kind: 'cost' } } },
    ]);
    await published([updated!, billing!, budget!, cost!]);
    const limitedEvents = (await deliveriesOf(hook.id)).map((d) => d.eventId).sort();
    assert.deepEqual(limitedEvents, [updated!, cost!].sort());
    const fullEvents = (await deliveriesOf(full.id)).map((d) => d.eventId).sort();
    assert.deepEqual(fullEvents, [billing!, budget!, cost!].sort(), 'an owner holding the finance scopes receives them');
    await waitFor('the allowed deliveries', async () => received.some((r) => r.headers['webhook-id'] === cost));
    const sentToLimited = received.filter((r) => [billing, budget].includes(r.headers['webhook-id']));
    for (const r of sentToLimited) assert.throws(() => new Webhook(hook.signingSecret).verify(r.body, r.headers), 'no restricted event was signed for the limited owner');
  });

  it('delivers to a service-account owner only the resources its resource grants let it read', async () => {
    const granted = randomUUID();
    const { token } = await cell.serviceAccount(['webhooks:read', 'webhooks:write', 'tags:read'], [{ resourceType: 'tag', resourceId: granted, access: 'read' }]);
    const hook = await subscribe('/ok', ['tag.updated'], token);
    const ids = await inTransaction(cell.database, async (tx) => {
      const out: string[] = [];
      for (const aggregateId of [granted, randomUUID()]) {
        await appendOutboxEvent(tx, { actor: null, cause: null, workspaceId: cell.workspaceId, aggregateId, aggregateType: 'tag', eventType: 'tag.updated', payload: { tag: {} } });
        out.push((await tx.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, aggregateId } })).id);
      }
      return out;
    });
    await published(ids);
    assert.deepEqual(
      (await deliveriesOf(hook.id)).map((d) => d.eventId),
      [ids[0]],
      'only the granted tag’s event',
    );
  });

  it('stops delivering to a removed or disabled subscription, and to an owner credential that was revoked', async () => {
    const removed = await subscribe('/ok', ['contact.created']);
    const disabled = await subscribe('/ok', ['contact.created']);
    const revokedOwner = await cell.mint(['webhooks:read', 'webhooks:write', 'contacts:read']);
    const orphan = await subscribe('/ok', ['contact.created'], revokedOwner);
    const live = await subscribe('/ok', ['contact.created']);
    assert.equal((await call('DELETE', `/v1/webhooks/${removed.id}`, cell.admin)).status, 204);
    const version = (await call<{ data: { version: string } }>('GET', `/v1/webhooks/${disabled.id}`, cell.admin)).body.data.version;
    assert.equal((await call('PATCH', `/v1/webhooks/${disabled.id}`, cell.admin, { expectedVersion: version, status: 'disabled' })).status, 200);
    const orphanRow = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { id: orphan.id } });
    await cell.database.changeAuthorization(cell.workspaceId, () =>
      cell.database.prisma.credential.updateMany({ where: { workspaceId: cell.workspaceId, id: orphanRow.ownerCredentialId }, data: { status: 'revoked', revokedAt: new Date() } }),
    );
    const [eventId] = await emit([{ aggregateType: 'contact', eventType: 'contact.created', payload: { contact: {} } }]);
    await published([eventId!]);
    assert.equal((await deliveriesOf(live.id)).length, 1, 'the live subscription got it');
    for (const s of [removed, disabled, orphan]) assert.equal((await deliveriesOf(s.id)).length, 0);
    // Revoked behind the API's back (no revoking procedure ran): the fan-out notices and disables it visibly.
    const orphaned = await waitFor('the orphan to be disabled', async () => {
      const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: orphan.id } });
      return row.status === 'disabled' && row;
    });
    assert.equal(orphaned.disabledReason, 'owner_revoked');
    const sent = await waitFor(
      'the live delivery',
      async () => received.filter((r) => r.headers['webhook-id'] === eventId).length === 1 && received.filter((r) => r.headers['webhook-id'] === eventId),
    );
    new Webhook(live.signingSecret).verify(sent[0]!.body, sent[0]!.headers);
  });

  it('a receiver answering 410 Gone disables the subscription at once: no retry, reason receiver_gone, audited, with an event', async () => {
    const hook = await subscribe('/gone', ['service.created']);
    const [eventId] = await emit([{ aggregateType: 'service', eventType: 'service.created', payload: { service: {} } }]);
    const row = await waitFor('the delivery to fail', async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'failed'));
    assert.deepEqual([row.attempt, row.responseStatusCode, row.failureReason], [1, 410, 'http_status']);
    const subscription = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: hook.id } });
    assert.deepEqual([subscription.status, subscription.disabledReason], ['disabled', 'receiver_gone']);
    const view = (await call<{ data: { status: string; disabledReason: string } }>('GET', `/v1/webhooks/${hook.id}`, cell.admin)).body.data;
    assert.deepEqual([view.status, view.disabledReason], ['disabled', 'receiver_gone']);
    assert.equal(await cell.database.prisma.auditEvent.count({ where: { workspaceId: cell.workspaceId, targetId: hook.id, action: 'webhook.disabled' } }), 1);
    assert.equal((await cell.outbox(hook.id, 'webhook.disabled')).length, 1);
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(received.filter((r) => r.path === '/gone' && r.headers['webhook-id'] === eventId).length, 1, 'sent once, never retried');
    const [later] = await emit([{ aggregateType: 'service', eventType: 'service.created', payload: { service: {} } }]);
    await published([later!]);
    assert.equal((await deliveriesOf(hook.id)).length, 1, 'nothing more is fanned out to it');
  });

  it('records why an attempt failed: connection refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const reply = await call<{ data: { id: string } }>('POST', '/v1/webhooks', cell.admin, { url: `https://127.0.0.1:${port}/in`, eventTypes: ['service.archived'] });
    assert.equal(reply.status, 201);
    await emit([{ aggregateType: 'service', eventType: 'service.archived', payload: { service: {} } }]);
    const row = await waitFor('the delivery to fail', async () => (await deliveriesOf(reply.body.data.id)).find((d) => d.status === 'failed'));
    assert.equal(row.failureReason, 'connection_refused');
    const shown = (await call<{ data: { failureReason: string }[] }>('GET', `/v1/webhooks/${reply.body.data.id}/deliveries`, cell.admin)).body.data[0]!;
    assert.equal(shown.failureReason, 'connection_refused');
  });

  it('rotation keeps the owner’s identity: deliveries continue and the new secret reads the whole history', async () => {
    const owner = await cell.mint(['webhooks:read', 'webhooks:write', 'tags:read']);
    const ownerId = (await call<{ data: { credentialId: string } }>('GET', '/v1/auth/context', owner)).body.data.credentialId;
    const hook = await subscribe('/ok', ['tag.created'], owner);
    const first = await createTag();
    await waitFor('the first delivery', async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'succeeded'));
    const rotated = await call<{ data: { id: string; secret: string } }>('POST', `/v1/credentials/${ownerId}/rotate`, cell.admin, {});
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const successor = rotated.body.data.secret;
    assertProblem(await call('GET', `/v1/webhooks/${hook.id}`, owner), 401, 'credential_revoked');
    const view = await call<{ data: { status: string } }>('GET', `/v1/webhooks/${hook.id}`, successor);
    assert.equal(view.status, 200);
    assert.equal(view.body.data.status, 'active');
    const second = await createTag();
    const secondEvent = await eventOf(second, 'tag.created');
    await waitFor('the delivery after rotation', async () => received.find((r) => r.headers['webhook-id'] === secondEvent.id));
    const history = await waitFor('both deliveries in the history', async () => {
      const list = await call<{ data: { eventId: string; status: string }[] }>('GET', `/v1/webhooks/${hook.id}/deliveries`, successor);
      return list.body.data.filter((d) => d.status === 'succeeded').length === 2 && list.body.data;
    });
    assert.deepEqual(
      history.map((d) => d.eventId),
      [(await eventOf(first, 'tag.created')).id, secondEvent.id],
    );
    const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: hook.id } });
    assert.equal(row.ownerCredentialId, rotated.body.data.id);
    assert.equal(await cell.database.prisma.auditEvent.count({ where: { workspaceId: cell.workspaceId, targetId: hook.id, action: 'webhook.disabled' } }), 0, 'rotation disables nothing');
  });

  it('an owner credential that expired is noticed where events are fanned out: disabled once (owner_expired), audited, with an event', async () => {
    const owner = await cell.mint(['webhooks:read', 'webhooks:write', 'lists:read']);
    const hook = await subscribe('/ok', ['list.updated'], owner);
    const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: hook.id } });
    await cell.database.changeAuthorization(cell.workspaceId, () =>
      cell.database.prisma.credential.updateMany({ where: { workspaceId: cell.workspaceId, id: row.ownerCredentialId }, data: { expiresAt: new Date(Date.now() - 1000) } }),
    );
    const ids = await emit([{ aggregateType: 'list', eventType: 'list.updated', payload: { list: {} } }]);
    await published(ids);
    const disabled = await waitFor('the subscription to be disabled', async () => {
      const r = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: hook.id } });
      return r.status === 'disabled' && r;
    });
    assert.equal(disabled.disabledReason, 'owner_expired');
    assert.equal((await deliveriesOf(hook.id)).length, 0);
    // Idempotent: further fan-outs neither disable it again nor write more events.
    const more = await emit([{ aggregateType: 'list', eventType: 'list.updated', payload: { list: {} } }]);
    await published(more);
    const ctx = { database: cell.database, config: env.config, now: () => new Date() };
    await relayOutbox(ctx, { dispatch: () => undefined, deliverLegacy: async () => undefined, start: async () => undefined, startAutomationRun: async () => undefined });
    assert.equal(await cell.database.prisma.auditEvent.count({ where: { workspaceId: cell.workspaceId, targetId: hook.id, action: 'webhook.disabled' } }), 1);
    assert.equal((await cell.outbox(hook.id, 'webhook.disabled')).length, 1);
  });

  it('every delivery carries its change-feed sequence, so a receiver can order what arrives out of order', async () => {
    const hook = await subscribe('/ok', ['contact_group.created']);
    const ids = await emit(Array.from({ length: 12 }, () => ({ aggregateType: 'contact_group', eventType: 'contact_group.created', payload: { contactGroup: {} } })));
    const got = await waitFor('all twelve deliveries', async () => {
      const r = received.filter((x) => ids.includes(x.headers['webhook-id']!));
      return r.length === 12 && r;
    });
    const events = await cell.database.prisma.outboxEvent.findMany({ where: { workspaceId: cell.workspaceId, id: { in: ids } } });
    const sequenceOf = new Map(events.map((e) => [e.id, e.sequence.toString()]));
    for (const r of got) {
      const body = new Webhook(hook.signingSecret).verify(r.body, r.headers) as { sequence: string };
      assert.equal(r.headers['webhook-sequence'], sequenceOf.get(r.headers['webhook-id']!));
      assert.equal(body.sequence, r.headers['webhook-sequence']);
    }
    const ordered = [...got].sort((a, b) => (BigInt(a.headers['webhook-sequence']!) < BigInt(b.headers['webhook-sequence']!) ? -1 : 1)).map((r) => r.headers['webhook-id']);
    assert.deepEqual(ordered, ids, 'sorting by sequence restores the event order');
  });

  it('delivers to a legacy v0 webhook unsigned, in the legacy shape, only for the events it names', async () => {
    const named = await cell.database.prisma.legacyWebhook.create({ data: { workspaceId: cell.workspaceId, url: `${base}/legacy`, events: ['call_note.created'] } });
    await cell.database.prisma.legacyWebhook.create({ data: { workspaceId: cell.workspaceId, url: `${base}/legacy-other`, events: ['task.created'] } });
    await cell.database.prisma.legacyWebhook.create({ data: { workspaceId: cell.workspaceId, url: `${base}/legacy-archived`, events: [], archivedAt: new Date() } });
    const [eventId] = await emit([{ aggregateType: 'call_note', eventType: 'call_note.created', payload: { callNote: { subject: 'hi' }, requestId: 'r1' } }]);
    const got = await waitFor('the legacy delivery', async () => received.find((r) => r.path === '/legacy'));
    assert.equal(got.headers['webhook-signature'], undefined);
    assert.equal(got.headers['webhook-id'], undefined);
    const body = JSON.parse(got.body) as Record<string, unknown>;
    const event = await cell.database.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: eventId! } });
    assert.deepEqual(body, {
      event: 'call_note.created',
      _id: eventId,
      teamId: cell.workspaceId,
      resourceId: event.aggregateId,
      createdAt: event.occurredAt.toISOString(),
      data: { callNote: { subject: 'hi' } },
    });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(received.filter((r) => r.path === '/legacy').length, 1);
    assert.ok(!received.some((r) => r.path === '/legacy-other' || r.path === '/legacy-archived'));
    // Its job follows the webhook retry schedule (WEBHOOK_RETRY_SCHEDULE): its attempts, and each delay with jitter.
    const queues = new JobQueues(env.config);
    try {
      const job = await queues.queue('deliveries').getJob(`webhooks.deliver-legacy.${named.id}.${eventId}`);
      assert.ok(job);
      assert.deepEqual([job.opts.attempts, job.opts.backoff], [3, { type: WEBHOOK_SCHEDULE }]);
    } finally {
      await queues.close();
    }
    for (const made of [1, 2, 9]) {
      const delay = webhookScheduleDelayMs(env.config, made);
      assert.ok(delay >= 80 && delay <= 120, `after run ${made}: ${delay} ms`);
    }
    await cell.database.prisma.legacyWebhook.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: named.id } }, data: { archivedAt: new Date() } });
  });

  it('fans each event out exactly once when relays run concurrently', async () => {
    const hook = await subscribe('/ok', ['list.created']);
    const ids = await emit(Array.from({ length: 30 }, () => ({ aggregateType: 'list', eventType: 'list.created', payload: { list: {} } })));
    const sink: DeliverySink = { dispatch: () => undefined, deliverLegacy: async () => undefined, start: async () => undefined, startAutomationRun: async () => undefined };
    const ctx = { database: cell.database, config: env.config, now: () => new Date() };
    await Promise.all([relayOutbox(ctx, sink), relayOutbox(ctx, sink), relayOutbox(ctx, sink)]);
    await published(ids);
    const rows = await deliveriesOf(hook.id);
    assert.equal(rows.length, 30);
    assert.deepEqual(new Set(rows.map((r) => r.eventId)), new Set(ids), 'one row per event: none fanned out twice');
  });

  it('in production, refuses receivers on private, loopback or link-local addresses and records why', async () => {
    const production = configFrom({ WORKCELL_ENV: 'production', CREDENTIAL_SECRET: env.config.credentialSecret, DATABASE_URL: env.databaseUrl, REDIS_URL: env.config.redis.url });
    // The extra CA is a test aid: production refuses to start with it.
    assert.throws(() => configFrom({ WORKCELL_ENV: 'production', CREDENTIAL_SECRET: env.config.credentialSecret, WEBHOOK_EXTRA_CA_FILE: certFile }), /WEBHOOK_EXTRA_CA_FILE/);
    assert.throws(() => configFrom({ WEBHOOK_DELIVERY_TIMEOUT_MS: '5' }), /WEBHOOK_DELIVERY_TIMEOUT_MS/);
    assert.equal(production.webhooks.extraCaFile, null);
    for (const target of [`${base}/ok`, 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x', 'https://[::ffff:127.0.0.1]/x']) {
      const outcome = await postJson(production, target, '{}', {});
      assert.equal(outcome.refused, true, target);
      assert.match(outcome.error ?? '', /refused/);
    }
    // A host name that resolves to loopback is refused by the connection's own lookup.
    const vm = await lookup('vm').catch(() => null);
    if (vm?.address.startsWith('127.')) {
      const outcome = await postJson(production, `https://vm:${new URL(base).port}/ok`, '{}', {});
      assert.equal(outcome.refused, true);
      assert.match(outcome.error ?? '', /non-public address/);
    }
    const before = received.length;
    // A pending delivery run by a production worker ends failed at once with the reason.
    const hook = await subscribe('/ok', ['product.created']);
    const [eventId] = await emit([{ aggregateType: 'product', eventType: 'product.created', payload: { product: {} } }]);
    await published([eventId!]);
    const [row] = await deliveriesOf(hook.id);
    await waitFor('the test-mode delivery', async () => (await deliveriesOf(hook.id))[0]!.status === 'succeeded');
    // The same delivery as claimed again (attempt 2, not due for the test worker), attempted by a production worker.
    await cell.database.prisma.webhookDelivery.update({
      where: { workspaceId_id: { workspaceId: cell.workspaceId, id: row!.id } },
      data: { status: 'pending', attempt: 2, nextAttemptAt: new Date(Date.now() + 3_600_000), deliveredAt: null },
    });
    const subscription = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: hook.id } });
    const event = await cell.database.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: eventId! } });
    const sentBefore = received.filter((r) => r.headers['webhook-id'] === eventId).length;
    await attemptDelivery(
      { database: cell.database, config: production, now: () => new Date() },
      {
        workspaceId: cell.workspaceId,
        id: row!.id,
        subscriptionId: hook.id,
        attempt: 2,
        attemptsAllowed: 3,
        url: subscription.url,
        secrets: { current: { ciphertext: subscription.secretCiphertext, keyId: subscription.secretKeyId }, previous: null },
        event: { ...event, payload: event.payload },
      },
    );
    const failed = (await deliveriesOf(hook.id))[0]!;
    assert.equal(failed.status, 'failed');
    assert.match(failed.error ?? '', /refused/);
    assert.equal(received.filter((r) => r.headers['webhook-id'] === eventId).length, sentBefore, 'nothing was sent');
    assert.ok(received.length >= before);
  });
});
