import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { V1_SCOPES } from '@workcell/credentials';
import { issueCredential, inTransaction } from '@workcell/db';
import { createLogger } from '@workcell/http';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages } from './support/v1.js';

/**
 * v1 signed webhook subscriptions (contract 6), the API side: the one-time signing secret (never shown again,
 * never stored or logged in clear), scopes, validation with pointers (event types must name catalog event types),
 * compare-and-set updates, removal, tenancy and delivery history readable only by the owning credential.
 * Delivery itself is tested in webhook-delivery.test.ts.
 */

const env = useTestEnvironment();

type Webhook = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  status: string;
  disabledReason: string | null;
  disabledAt: string | null;
  signatureVersion: string;
  version: string;
  signingSecret?: string;
};

let logs = '';
const sink = () => new Writable({ write: (chunk, _enc, done) => ((logs += chunk.toString()), done()) });

describe('v1 webhooks', () => {
  const cell = useV1Cell(env, { logger: (c, service) => createLogger({ ...c, logLevel: 'debug' }, service, sink()) });
  const other = { workspaceId: '', webhookId: '' };

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) => callApi<T>(cell.v1, method, path, token, body);
  const create = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Webhook }>('POST', '/v1/webhooks', token, { url: 'https://hooks.example.com/in', eventTypes: ['tag.created'], ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return { webhook: reply.body.data, reply };
  };

  beforeAll(async () => {
    // Another workspace with a subscription of its own.
    other.workspaceId = await cell.otherWorkspace();
    const user = await cell.database.prisma.user.create({ data: { email: `elsewhere-${randomUUID()}@example.com`, name: 'Else' } });
    const member = await cell.database.prisma.workspaceMember.create({ data: { workspaceId: other.workspaceId, userId: user.id } });
    const credential = await inTransaction(cell.database, (tx) =>
      issueCredential(tx, cell.config, { workspaceId: other.workspaceId, kind: 'personal_access_token', name: 'x', scopes: V1_SCOPES, memberId: member.id }),
    );
    other.webhookId = (
      await cell.database.prisma.webhookSubscription.create({
        data: { workspaceId: other.workspaceId, url: 'https://elsewhere.example.com/', eventTypes: ['*'], ownerCredentialId: credential.id, secretCiphertext: Buffer.from('x'), secretKeyId: 'k' },
      })
    ).id;
  });

  it('every operation answers 403 insufficient_scope naming its scope to a credential without it', async () => {
    const id = randomUUID();
    const operations: [string, string, string][] = [
      ['GET', '/v1/webhooks', 'webhooks:read'],
      ['POST', '/v1/webhooks', 'webhooks:write'],
      ['GET', `/v1/webhooks/${id}`, 'webhooks:read'],
      ['PATCH', `/v1/webhooks/${id}`, 'webhooks:write'],
      ['DELETE', `/v1/webhooks/${id}`, 'webhooks:write'],
      ['GET', `/v1/webhooks/${id}/deliveries`, 'webhooks:read'],
      ['GET', `/v1/webhooks/${id}/deliveries/${randomUUID()}`, 'webhooks:read'],
    ];
    const token = await cell.mint(V1_SCOPES.filter((s) => !s.startsWith('webhooks:')));
    for (const [method, path, scope] of operations) {
      const reply = await call(method, path, token, method === 'POST' || method === 'PATCH' ? {} : undefined);
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.equal(errorOf(reply).code, 'insufficient_scope');
      assert.match(errorOf(reply).detail, new RegExp(scope), `${method} ${path} names ${scope}`);
    }
    const reader = await cell.mint(['webhooks:read']);
    assert.equal((await call('GET', '/v1/webhooks', reader)).status, 200);
    assertProblem(await call('POST', '/v1/webhooks', reader, { url: 'https://a.example.com/', eventTypes: ['*'] }), 403, 'insufficient_scope');
  });

  it('create returns the signing secret exactly once, never cached; get and list never show it; it is stored only encrypted and never logged', async () => {
    const { webhook, reply } = await create({ description: 'CRM sync', eventTypes: ['tag.created', '*', 'tag.created'] });
    assertShape('createWebhook', webhook);
    assert.match(webhook.signingSecret!, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(webhook.signingSecret!.slice(6), 'base64').length, 32);
    assert.equal(reply.headers.get('cache-control'), 'private, no-store');
    assert.equal(reply.headers.get('location'), `/v1/webhooks/${webhook.id}`);
    assert.deepEqual(webhook.eventTypes, ['tag.created', '*'], 'duplicates folded');
    assert.equal(webhook.signatureVersion, 'v2');
    assert.equal(webhook.status, 'active');

    const got = await call<{ data: Webhook }>('GET', `/v1/webhooks/${webhook.id}`, cell.admin);
    assert.equal(got.status, 200);
    assertShape('getWebhook', got.body.data);
    assert.equal(got.body.data.signingSecret, undefined);
    assert.equal(got.headers.get('etag'), `"${webhook.version}"`);
    const listed = await listAllPages<Webhook>(cell.v1, '/v1/webhooks', cell.admin);
    const item = listed.find((w) => w.id === webhook.id)!;
    assertShape('listWebhooks', item);
    assert.equal(item.signingSecret, undefined);
    assert.ok(!listed.some((w) => w.id === other.webhookId), 'another workspace’s subscription is not listed');

    const secret = webhook.signingSecret!;
    const raw = Buffer.from(secret.slice(6), 'base64');
    const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: webhook.id } });
    const stored = Buffer.from(row.secretCiphertext);
    assert.ok(!stored.includes(Buffer.from(secret)) && !stored.includes(raw), 'the ciphertext holds no plaintext');
    assert.ok(!JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)).includes(secret.slice(6)));
    assert.ok(row.secretKeyId.length > 0);
    const audit = await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, targetId: webhook.id } });
    assert.deepEqual(
      audit.map((a) => a.action),
      ['webhook.created'],
    );
    assert.ok(!JSON.stringify(audit).includes(secret.slice(6)));
    assert.ok(logs.length > 0, 'logs were captured');
    assert.ok(!logs.includes(secret.slice(6)), 'the secret is never logged');
    // Outbox events are not written for webhook changes (they are no catalog event type); the audit trail has them.
    assert.equal((await cell.outbox(webhook.id)).length, 0);
  });

  it('validation answers 400 with a pointer and writes nothing', async () => {
    const before = await cell.database.prisma.webhookSubscription.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'http://hooks.example.com/in', eventTypes: ['tag.created'] }, '/url'],
      [{ url: 'not a url', eventTypes: ['tag.created'] }, '/url'],
      [{ url: 'https://hooks.example.com/in', eventTypes: [] }, '/eventTypes'],
      [{ url: 'https://hooks.example.com/in', eventTypes: ['tag.created', 'no.such_event'] }, '/eventTypes/1'],
      // Not a webhooks-channel event type of the catalog.
      [{ url: 'https://hooks.example.com/in', eventTypes: ['legacy_webhook.created'] }, '/eventTypes/0'],
      // A caller cannot choose the secret (unknown members are refused at the body's root).
      [{ url: 'https://hooks.example.com/in', eventTypes: ['tag.created'], secret: 'mine' }, ''],
    ];
    for (const [body, pointer] of cases) {
      const reply = await call('POST', '/v1/webhooks', cell.admin, body);
      assertProblem(reply, 400, 'validation_failed');
      assert.ok(
        (reply.body as { errors: { source?: { pointer?: string } }[] }).errors.some((e) => e.source?.pointer === pointer),
        `${JSON.stringify(body)} points at ${pointer}: ${JSON.stringify(reply.body)}`,
      );
    }
    assert.equal(await cell.database.prisma.webhookSubscription.count(), before);
  });

  it('creation says what is required: https (http only to loopback outside production), description up to 2,000, the event catalog', async () => {
    // Issue 10: an http:// URL answered the schema's bare "Invalid URL".
    const http = await call('POST', '/v1/webhooks', cell.admin, { url: 'http://hooks.example.com/in', eventTypes: ['tag.created'] });
    assertProblem(http, 400, 'validation_failed');
    assert.match(JSON.stringify(http.body), /https:\/\/.*loopback/);
    assert.doesNotMatch(JSON.stringify(http.body), /Invalid URL/);
    const garbage = await call('POST', '/v1/webhooks', cell.admin, { url: 'ftp://hooks.example.com/in', eventTypes: ['tag.created'] });
    assert.match(JSON.stringify(garbage.body), /absolute https:\/\//);
    // Outside production (these tests run with WORKCELL_ENV=test) a loopback receiver may be plain http.
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://[::1]:9000/x']) {
      const reply = await call<{ data: Webhook }>('POST', '/v1/webhooks', cell.admin, { url, eventTypes: ['tag.created'] });
      assert.equal(reply.status, 201, `${url}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.data.url, url);
    }
    // description: what the OpenAPI document allows (2,000), one source with the registry.
    const long = 'd'.repeat(2000);
    const described = await call<{ data: Webhook }>('POST', '/v1/webhooks', cell.admin, { url: 'https://hooks.example.com/in', eventTypes: ['tag.created'], description: long });
    assert.equal(described.status, 201, JSON.stringify(described.body));
    assert.equal(described.body.data.description, long);
    assertProblem(
      await call('POST', '/v1/webhooks', cell.admin, { url: 'https://hooks.example.com/in', eventTypes: ['tag.created'], description: `${long}x` }),
      400,
      'validation_failed',
      '/description',
    );
    // The error names the catalog that exists.
    const unknown = await call('POST', '/v1/webhooks', cell.admin, { url: 'https://hooks.example.com/in', eventTypes: ['no.such_event'] });
    assert.match(JSON.stringify(unknown.body), /GET \/v1\/event-catalog/);
    assert.doesNotMatch(JSON.stringify(unknown.body), /GET \/v1\/events\b/);
    assert.equal((await call('GET', '/v1/event-catalog', cell.admin)).status, 200, 'the catalog the error names exists');
  });

  it('updates by compare-and-set: a stale expectedVersion answers 409 and changes nothing', async () => {
    const { webhook } = await create();
    const updated = await call<{ data: Webhook }>('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, {
      expectedVersion: webhook.version,
      eventTypes: ['tag.updated'],
      status: 'disabled',
      description: 'paused',
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assertShape('updateWebhook', updated.body.data);
    assert.deepEqual(updated.body.data.eventTypes, ['tag.updated']);
    assert.equal(updated.body.data.status, 'disabled');
    assert.notEqual(updated.body.data.version, webhook.version);
    assert.equal(updated.body.data.signingSecret, undefined);

    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, { expectedVersion: webhook.version, description: 'lost update' }), 409, 'version_conflict');
    assert.equal((await call<{ data: Webhook }>('GET', `/v1/webhooks/${webhook.id}`, cell.admin)).body.data.description, 'paused');
    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, { expectedVersion: updated.body.data.version, eventTypes: ['nope'] }), 400, 'validation_failed', '/eventTypes/0');
    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, { description: 'no version' }), 400, 'validation_failed');
    const actions = (await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, targetId: webhook.id }, orderBy: { occurredAt: 'asc' } })).map((a) => a.action);
    assert.deepEqual(actions, ['webhook.created', 'webhook.updated']);
  });

  it('remove archives the subscription: it is gone from get and list, a second remove answers 404', async () => {
    const { webhook } = await create();
    assert.equal((await call('DELETE', `/v1/webhooks/${webhook.id}`, cell.admin)).status, 204);
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}`, cell.admin), 404, 'not_found');
    assert.ok(!(await listAllPages<Webhook>(cell.v1, '/v1/webhooks', cell.admin)).some((w) => w.id === webhook.id));
    assertProblem(await call('DELETE', `/v1/webhooks/${webhook.id}`, cell.admin), 404, 'not_found');
    const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: webhook.id } });
    assert.ok(row.archivedAt !== null, 'archived, not deleted');
    assert.ok((await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, targetId: webhook.id } })).some((a) => a.action === 'webhook.removed'));
  });

  it('another workspace’s subscription answers 404 and is not changed', async () => {
    const id = other.webhookId;
    assertProblem(await call('GET', `/v1/webhooks/${id}`, cell.admin), 404, 'not_found');
    assertProblem(await call('PATCH', `/v1/webhooks/${id}`, cell.admin, { expectedVersion: '1', description: 'hijack' }), 404, 'not_found');
    assertProblem(await call('DELETE', `/v1/webhooks/${id}`, cell.admin), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${id}/deliveries`, cell.admin), 404, 'not_found');
    const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { id } });
    assert.equal(row.description, null);
    assert.equal(row.archivedAt, null);
    assert.equal(row.revision, 1);
  });

  /** A member of the workspace with one role holding `permissions`, and a personal token of it. */
  const member = async (permissions: readonly string[], scopes: readonly string[] = permissions) => {
    const user = await cell.database.prisma.user.create({ data: { email: `m-${randomUUID()}@example.com`, name: 'Member' } });
    const m = await cell.database.prisma.workspaceMember.create({ data: { workspaceId: cell.workspaceId, userId: user.id } });
    const role = await cell.database.prisma.role.create({ data: { workspaceId: cell.workspaceId, name: `role ${randomUUID()}`, permissions: [...permissions] } });
    await cell.database.prisma.memberRole.create({ data: { workspaceId: cell.workspaceId, memberId: m.id, roleId: role.id } });
    const { token } = await inTransaction(cell.database, (tx) => issueCredential(tx, cell.config, { workspaceId: cell.workspaceId, kind: 'personal_access_token', name: 'm', scopes, memberId: m.id }));
    return token;
  };

  it('the issue’s exploit is closed: a token that cannot read tasks cannot redirect another credential’s subscription to itself', async () => {
    const owner = await cell.mint(['webhooks:read', 'webhooks:write', 'tasks:read']);
    const { webhook } = await create({ url: 'https://owner.example.com/in', eventTypes: ['task.created'] }, owner);
    // A member who may manage webhooks but not read tasks (and is no administrator).
    const attacker = await member(['webhooks:read', 'webhooks:write']);
    assertProblem(await call('GET', '/v1/tasks', attacker), 403, 'insufficient_scope');
    const hijack = { expectedVersion: webhook.version, url: 'https://attacker.example.com/in', eventTypes: ['*'] };
    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, attacker, hijack), 404, 'not_found');
    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, attacker, { expectedVersion: webhook.version, status: 'disabled' }), 404, 'not_found');
    assertProblem(await call('DELETE', `/v1/webhooks/${webhook.id}`, attacker), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}`, attacker), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, attacker), 404, 'not_found');
    assert.ok(!(await listAllPages<Webhook>(cell.v1, '/v1/webhooks', attacker)).some((w) => w.id === webhook.id), 'lists show only the caller’s own');
    // A service account with every webhook scope is no owner either.
    const integration = (await cell.serviceAccount(['webhooks:read', 'webhooks:write'], [])).token;
    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, integration, hijack), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}`, integration), 404, 'not_found');
    const row = await cell.database.prisma.webhookSubscription.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: webhook.id } });
    assert.deepEqual([row.url, row.eventTypes, row.status, row.revision, row.archivedAt], ['https://owner.example.com/in', ['task.created'], 'active', 1, null], 'untouched');
    // The attacker's own subscription is its own.
    const mine = await create({}, attacker);
    assert.deepEqual(
      (await listAllPages<Webhook>(cell.v1, '/v1/webhooks', attacker)).map((w) => w.id),
      [mine.webhook.id],
    );
    // The owner still does everything.
    const changed = await call<{ data: Webhook }>('PATCH', `/v1/webhooks/${webhook.id}`, owner, { expectedVersion: webhook.version, description: 'mine' });
    assert.equal(changed.status, 200);
    assert.equal((await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, owner)).status, 200);
  });

  it('another credential of the same member, even with every scope, is not the owner; a non-administrator sees nothing', async () => {
    const worker = await member(['webhooks:read', 'webhooks:write', 'tags:read']);
    const { webhook } = await create({}, worker);
    const sibling = await member(['webhooks:read', 'webhooks:write', 'tags:read']);
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}`, sibling), 404, 'not_found');
    const serviceAccountToken = (await cell.serviceAccount(['webhooks:read'], [])).token;
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}`, serviceAccountToken), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, serviceAccountToken), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}/deliveries/${randomUUID()}`, worker), 404, 'not_found');
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}/deliveries?status=bogus`, worker), 400, 'validation_failed');
    assert.deepEqual((await call<{ data: unknown[] }>('GET', `/v1/webhooks/${webhook.id}/deliveries`, worker)).body.data, []);
  });

  it('a workspace administrator sees metadata and may only disable (audited, with an event); the owner re-enables', async () => {
    const owner = await member(['webhooks:read', 'webhooks:write', 'tags:read']);
    const { webhook } = await create({ description: 'owned' }, owner);
    // `admin` is a token of the seeded owner member, whose role holds settings.api.serviceAccounts.manage.
    const got = await call<{ data: Webhook }>('GET', `/v1/webhooks/${webhook.id}`, cell.admin);
    assert.equal(got.status, 200);
    assert.equal(got.body.data.signingSecret, undefined);
    assert.ok((await listAllPages<Webhook>(cell.v1, '/v1/webhooks', cell.admin)).some((w) => w.id === webhook.id));
    assertProblem(await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, cell.admin), 404, 'not_found');
    for (const body of [{ url: 'https://admin.example.com/' }, { eventTypes: ['*'] }, { description: 'x' }, { status: 'disabled', url: 'https://admin.example.com/' }, { status: 'active' }]) {
      assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, { expectedVersion: webhook.version, ...body }), 403, 'forbidden');
    }
    assertProblem(await call('DELETE', `/v1/webhooks/${webhook.id}`, cell.admin), 403, 'forbidden');
    assertProblem(await call('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, { expectedVersion: '999', status: 'disabled' }), 409, 'version_conflict');
    const disabled = await call<{ data: Webhook }>('PATCH', `/v1/webhooks/${webhook.id}`, cell.admin, { expectedVersion: webhook.version, status: 'disabled' });
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    assertShape('updateWebhook', disabled.body.data);
    assert.deepEqual([disabled.body.data.status, disabled.body.data.disabledReason, disabled.body.data.url], ['disabled', 'administrator', webhook.url]);
    assert.ok(disabled.body.data.disabledAt !== null);
    const audit = await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, targetId: webhook.id, action: 'webhook.disabled' } });
    assert.equal(audit.length, 1);
    assert.equal((audit[0]!.metadata as { reason: string }).reason, 'administrator');
    const events = await cell.outbox(webhook.id, 'webhook.disabled');
    assert.equal(events.length, 1);
    assert.ok(!JSON.stringify(events[0]!.payload).includes('example.com'), 'the event never carries the url');
    // Only the owner re-enables; that clears the reason.
    const version = (await call<{ data: Webhook }>('GET', `/v1/webhooks/${webhook.id}`, owner)).body.data.version;
    const enabled = await call<{ data: Webhook }>('PATCH', `/v1/webhooks/${webhook.id}`, owner, { expectedVersion: version, status: 'active' });
    assert.equal(enabled.status, 200);
    assert.deepEqual([enabled.body.data.status, enabled.body.data.disabledReason, enabled.body.data.disabledAt], ['active', null, null]);
    // The owner's own disabling says so.
    const own = await call<{ data: Webhook }>('PATCH', `/v1/webhooks/${webhook.id}`, owner, { expectedVersion: enabled.body.data.version, status: 'disabled' });
    assert.equal(own.body.data.disabledReason, 'owner');
  });

  it('revoking the owner disables its subscriptions visibly (owner_revoked, audit, event): DELETE /v1/auth/context, DELETE /v1/credentials/{id}, service-account deletion', async () => {
    const selfRevoked = await member(['webhooks:read', 'webhooks:write', 'tags:read']);
    const a = (await create({}, selfRevoked)).webhook;
    assert.equal((await call('DELETE', '/v1/auth/context', selfRevoked)).status, 204);
    const byId = await cell.mint(['webhooks:read', 'webhooks:write', 'tags:read']);
    const b = (await create({}, byId)).webhook;
    const byIdCredential = (await call<{ data: { credentialId: string } }>('GET', '/v1/auth/context', byId)).body.data.credentialId;
    assert.equal((await call('DELETE', `/v1/credentials/${byIdCredential}`, cell.admin)).status, 204);
    const account = await cell.serviceAccount(['webhooks:read', 'webhooks:write'], []);
    const c = (await create({}, account.token)).webhook;
    assert.equal((await call('DELETE', `/v1/service-accounts/${account.serviceAccountId}`, cell.admin)).status, 204);
    for (const hook of [a, b, c]) {
      const seen = await call<{ data: Webhook }>('GET', `/v1/webhooks/${hook.id}`, cell.admin);
      assert.deepEqual([seen.body.data.status, seen.body.data.disabledReason], ['disabled', 'owner_revoked'], hook.id);
      assert.equal(await cell.database.prisma.auditEvent.count({ where: { workspaceId: cell.workspaceId, targetId: hook.id, action: 'webhook.disabled' } }), 1);
      assert.equal((await cell.outbox(hook.id, 'webhook.disabled')).length, 1);
    }
  });

  it('a service-account credential’s rotation hands its subscriptions to the successor, which owns them from then on', async () => {
    const account = await cell.serviceAccount(['webhooks:read', 'webhooks:write'], []);
    const { webhook } = await create({}, account.token);
    const credentialId = (await call<{ data: { credentialId: string } }>('GET', '/v1/auth/context', account.token)).body.data.credentialId;
    const rotated = await call<{ data: { id: string; secret: string } }>('POST', `/v1/service-accounts/${account.serviceAccountId}/credentials/${credentialId}/rotate`, cell.admin, {});
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const successor = rotated.body.data.secret;
    const seen = await call<{ data: Webhook }>('GET', `/v1/webhooks/${webhook.id}`, successor);
    assert.equal(seen.status, 200);
    assert.deepEqual([seen.body.data.status, seen.body.data.disabledReason], ['active', null]);
    assert.deepEqual(
      (await listAllPages<Webhook>(cell.v1, '/v1/webhooks', successor)).map((w) => w.id),
      [webhook.id],
    );
    assert.equal((await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, successor)).status, 200);
    assert.equal((await call('GET', `/v1/webhooks/${webhook.id}`, account.token)).status, 401, 'the previous secret is revoked');
    const audit = await cell.database.prisma.auditEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, action: 'credential.rotated', targetId: credentialId } });
    assert.equal((audit.metadata as { webhooksTransferred: number }).webhooksTransferred, 1);
  });

  it('unknown and malformed ids answer 404', async () => {
    assertProblem(await call('GET', `/v1/webhooks/${randomUUID()}`, cell.admin), 404, 'not_found');
    assertProblem(await call('GET', '/v1/webhooks/not-an-id', cell.admin), 404, 'not_found');
  });
});
