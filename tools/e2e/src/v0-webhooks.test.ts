import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { assertLegacyError, callV0, useV0Cell, V0_DEPRECATION } from './support/v0.js';

/**
 * v0 webhooks: the legacy UNSIGNED subscriptions, their own table (legacy_webhooks), never a signed v2
 * subscription. Create with target URL and event-name validation, list, read, delete (archives: 404 from then
 * on) by path and by the deprecated body alias, the token's team on every write, outbox events.
 */

const env = useTestEnvironment();

type Webhook = { _id: string; url: string; events: string[]; createdAt: string; updatedAt: string };
const UNKNOWN = '0190a0b0-0000-7000-8000-000000000001';

describe('v0 webhooks (legacy unsigned subscriptions)', () => {
  const cell = useV0Cell(env);
  const { teamToken } = cell;
  const other = { workspaceId: '', webhookId: '', token: '' };
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string | undefined, body?: unknown) => callV0<T>(cell.v0, method, path, token, body);
  const create = async (token: string, body: Record<string, unknown> = {}) => {
    const reply = await call<Webhook>('POST', '/webhooks', token, { url: `https://hooks.example.com/in/${++seq}`, ...body });
    assert.equal(reply.status, 201, reply.text);
    return reply.body;
  };
  const row = (id: string, ws = cell.workspaceId) => cell.database.prisma.legacyWebhook.findUnique({ where: { workspaceId_id: { workspaceId: ws, id } } });
  const count = () => cell.database.prisma.legacyWebhook.count({ where: { workspaceId: cell.workspaceId } });

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.webhookId = (await cell.database.prisma.legacyWebhook.create({ data: { workspaceId: other.workspaceId, url: 'https://foreign.example.com/hook' } })).id;
    other.token = await teamToken(null, other.workspaceId);
  });

  it('every operation needs a team token (401)', async () => {
    for (const [method, path] of [
      ['GET', '/webhooks'],
      ['POST', '/webhooks'],
      ['GET', `/webhooks/${UNKNOWN}`],
      ['DELETE', `/webhooks/${UNKNOWN}`],
      ['DELETE', '/webhooks'],
    ] as const) {
      assertLegacyError(await call(method, path, undefined, method === 'POST' ? { url: 'https://example.com' } : undefined), 401, 'unauthorized');
    }
  });

  it("POST /webhooks stores an unsigned subscription (201) in the token's team, never a v2 subscription; URL kept as given", async () => {
    const token = await teamToken();
    const v2Before = await cell.database.prisma.webhookSubscription.count();
    const reply = await call<Webhook>('POST', '/webhooks', token, {
      url: 'https://Hooks.Example.com:8443/in?key=abc',
      events: ['task.created', 'task.created', 'time_entry.updated'],
      team: other.workspaceId,
      workspaceId: other.workspaceId,
      secret: 'x',
    });
    assert.equal(reply.status, 201, reply.text);
    const hook = reply.body;
    assert.deepEqual(Object.keys(hook).sort(), ['_id', 'createdAt', 'events', 'updatedAt', 'url']);
    assert.equal(hook.url, 'https://Hooks.Example.com:8443/in?key=abc');
    assert.deepEqual(hook.events, ['task.created', 'time_entry.updated'], 'duplicates folded');
    const stored = await row(hook._id);
    assert.equal(stored?.workspaceId, cell.workspaceId);
    assert.equal(await cell.database.prisma.webhookSubscription.count(), v2Before);
    const events = await cell.database.prisma.outboxEvent.findMany({ where: { workspaceId: cell.workspaceId, aggregateId: hook._id } });
    assert.deepEqual(
      events.map((e) => e.eventType),
      ['legacy_webhook.created'],
    );
    assert.ok(!JSON.stringify(events[0]!.payload).includes('key=abc'), 'the event leaves the URL (and any secret in it) out');
    const noEvents = await create(token);
    assert.deepEqual(noEvents.events, [], 'no events: every event of the team');
  });

  it('http is accepted only to a loopback host (outside production)', async () => {
    const token = await teamToken();
    for (const url of ['http://localhost:8080/hook', 'http://127.0.0.1/hook', 'http://[::1]:9000/']) assert.equal((await call('POST', '/webhooks', token, { url })).status, 201, url);
  });

  it('POST /webhooks refuses bad URLs, events and bodies with 400, writing nothing', async () => {
    const token = await teamToken();
    const before = await count();
    const bodies: unknown[] = [
      {},
      { url: '' },
      { url: 'hooks.example.com/in' },
      { url: '/relative/path' },
      { url: 'http://hooks.example.com/in' },
      { url: 'http://10.0.0.5/in' },
      { url: 'ftp://hooks.example.com/in' },
      { url: 'javascript:alert(1)' },
      { url: 'https://user:pass@hooks.example.com/in' },
      { url: 'https://hooks.example.com/in#frag' },
      { url: ' https://hooks.example.com/in' },
      { url: 'https://hooks.example.com/a b' },
      { url: 'https://hooks.example.com/in\n' },
      { url: `https://hooks.example.com/${'a'.repeat(2100)}` },
      { url: 42 },
      { url: 'https://hooks.example.com/in', events: 'task.created' },
      { url: 'https://hooks.example.com/in', events: ['Task Created'] },
      { url: 'https://hooks.example.com/in', events: ['task'] },
      { url: 'https://hooks.example.com/in', events: Array.from({ length: 51 }, (_, i) => `task.e${i}`) },
      '[1]',
    ];
    for (const body of bodies) {
      const error = assertLegacyError(await call('POST', '/webhooks', token, body), 400, 'invalid_request');
      if (typeof body === 'object' && body !== null && 'url' in body && typeof (body as { url: unknown }).url === 'string' && !('events' in body))
        assert.match(error.message, /url/, JSON.stringify(body));
    }
    assert.equal(await count(), before);
  });

  it("GET /webhooks lists the team's live subscriptions paged (400 on bad page/limit), never deleted or foreign ones", async () => {
    const token = await teamToken();
    const hooks = [await create(token), await create(token), await create(token), await create(token)];
    assert.equal((await call('DELETE', `/webhooks/${hooks[3]!._id}`, token)).status, 204);
    const all = await call<Webhook[]>('GET', '/webhooks?limit=500', token);
    assert.equal(all.status, 200, all.text);
    const ids = all.body.map((h) => h._id);
    assert.ok(hooks.slice(0, 3).every((h) => ids.includes(h._id)));
    assert.ok(!ids.includes(hooks[3]!._id) && !ids.includes(other.webhookId));
    assert.deepEqual(ids, [...ids].sort());
    const page2 = await call<Webhook[]>('GET', '/webhooks?page=2&limit=1', token);
    assert.deepEqual(
      page2.body.map((h) => h._id),
      [ids[1]],
    );
    for (const query of ['page=0', 'page=x', 'limit=0', 'limit=501']) assertLegacyError(await call('GET', `/webhooks?${query}`, token), 400, 'invalid_request');
    const foreign = await call<Webhook[]>('GET', '/webhooks', other.token);
    assert.deepEqual(
      foreign.body.map((h) => h._id),
      [other.webhookId],
    );
  });

  it('GET /webhooks/{_id} reads one; unknown, malformed, foreign and deleted ids are 404', async () => {
    const token = await teamToken();
    const hook = await create(token, { events: ['project.created'] });
    const reply = await call<Webhook>('GET', `/webhooks/${hook._id}`, token);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, hook);
    for (const query of ['page=0', 'limit=501']) assertLegacyError(await call('GET', `/webhooks/${hook._id}?${query}`, token), 400, 'invalid_request');
    assert.equal((await call('DELETE', `/webhooks/${hook._id}`, token)).status, 204);
    for (const id of [hook._id, UNKNOWN, 'nope', other.webhookId]) assertLegacyError(await call('GET', `/webhooks/${id}`, token), 404, 'not_found');
  });

  it('DELETE /webhooks/{_id} archives the subscription (204, row kept with archived_at, event written); again, unknown or foreign is 404', async () => {
    const token = await teamToken();
    const hook = await create(token);
    const reply = await call('DELETE', `/webhooks/${hook._id}`, token);
    assert.equal(reply.status, 204, reply.text);
    assert.equal(reply.text, '');
    assert.equal(reply.headers.get('deprecation'), null);
    assert.ok((await row(hook._id))?.archivedAt);
    assert.equal(await cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, aggregateId: hook._id, eventType: 'legacy_webhook.deleted' } }), 1);
    for (const id of [hook._id, UNKNOWN, other.webhookId]) assertLegacyError(await call('DELETE', `/webhooks/${id}`, token), 404, 'not_found');
    assert.equal((await row(other.webhookId, other.workspaceId))?.archivedAt, null);
  });

  it('DELETE /webhooks (deprecated alias) takes _id from the body (400 without) and carries Deprecation and Link', async () => {
    const token = await teamToken();
    const hook = await create(token);
    for (const body of [undefined, {}, { _id: '' }]) {
      const reply = await call('DELETE', '/webhooks', token, body);
      assertLegacyError(reply, 400);
      assert.equal(reply.headers.get('deprecation'), V0_DEPRECATION);
    }
    const reply = await call('DELETE', '/webhooks', token, { _id: hook._id });
    assert.equal(reply.status, 204, reply.text);
    assert.equal(reply.headers.get('deprecation'), V0_DEPRECATION);
    assert.match(reply.headers.get('link') ?? '', new RegExp(`^<${cell.config.baseUrls.v1}/v1/webhooks/${hook._id}>; rel="successor-version"$`));
    assert.ok((await row(hook._id))?.archivedAt);
    assertLegacyError(await call('DELETE', '/webhooks', token, { _id: other.webhookId }), 404, 'not_found');
    assert.equal((await row(other.webhookId, other.workspaceId))?.archivedAt, null);
  });
});
