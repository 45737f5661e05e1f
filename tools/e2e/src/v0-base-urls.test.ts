import assert from 'node:assert/strict';
import { stripV0Prefix, v0PathPrefixes } from '@workcell/api-v0';
import { loadConfig } from '@workcell/config';
import { testConfig, useTestEnvironment } from '@workcell/testing';
import { callV0, type LegacyReply as Reply, useV0Cell } from './support/v0.js';

/**
 * Contract 9.2: v0 is served from {base_url} and from {base_url_alt} with identical behaviour. Here the
 * alternate base address carries a path prefix (http://…/legacy), so every v0 operation must answer the same
 * under it as under the plain address: same status, body and protocol headers, for reads, writes, errors,
 * deprecated aliases and the discovery redirect.
 */

const env = useTestEnvironment();

const HEADERS = ['content-type', 'deprecation', 'link', 'location', 'cache-control', 'x-ratelimit-limit'];

describe('v0 under both base addresses', () => {
  const cell = useV0Cell(env, { settings: { V0_BASE_URL: 'http://127.0.0.1:3000', V0_BASE_URL_ALT: 'http://localhost:3000/legacy/' } });
  const { teamToken } = cell;
  let primary: string;
  let alternate: string;

  /** A request to a base address (redirects are not followed). */
  const call = (base: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<Reply> => callV0({ url: base }, method, path, token, body);
  /** The same request under both addresses answers identically (each with its own token: v0 limits per token and path). */
  async function assertSame(method: string, path: string, body?: unknown, withToken = true): Promise<Reply> {
    const [a, b] = [await call(primary, method, path, withToken ? await teamToken() : undefined, body), await call(alternate, method, path, withToken ? await teamToken() : undefined, body)];
    assert.equal(b.status, a.status, `${method} ${path}: ${a.text} / ${b.text}`);
    assert.equal(b.text, a.text, `${method} ${path}`);
    for (const name of HEADERS) assert.equal(b.headers.get(name), a.headers.get(name), `${method} ${path} ${name}`);
    return a;
  }

  beforeAll(async () => {
    primary = cell.v0.url;
    alternate = `${cell.v0.url}/legacy`;
    await cell.database.prisma.task.create({ data: { workspaceId: cell.workspaceId, title: 'Seen from both addresses' } });
  });

  it('reads answer identically: collections, single resources, users, paging', async () => {
    const tasks = await assertSame('GET', '/tasks?limit=500');
    assert.equal(tasks.status, 200);
    const id = (JSON.parse(tasks.text) as { _id: string }[])[0]!._id;
    assert.equal((await assertSame('GET', `/tasks/${id}`)).status, 200);
    assert.equal((await assertSame('GET', '/tasks?page=2&limit=1')).status, 200);
    for (const path of ['/projects', '/contacts', '/lists', '/tags', '/times', '/users', '/webhooks']) assert.equal((await assertSame('GET', path)).status, 200, path);
  });

  it('errors answer identically: 401, 404, 400 page/limit, unknown routes', async () => {
    assert.equal((await assertSame('GET', '/tasks', undefined, false)).status, 401);
    assert.equal((await assertSame('GET', '/tasks/0190a0b0-0000-7000-8000-000000000001')).status, 404);
    assert.equal((await assertSame('GET', '/tasks?page=0')).status, 400);
    assert.equal((await assertSame('POST', '/webhooks', { url: 'ftp://example.com' })).status, 400);
    assert.equal((await assertSame('GET', '/no-such-route')).status, 404);
  });

  it('deprecated aliases carry the same Deprecation and Link; unavailable operations the same 403', async () => {
    const alias = await assertSame('PUT', '/tasks', { title: 'no id' });
    assert.equal(alias.status, 400);
    assert.ok(alias.headers.get('deprecation'));
    assert.equal((await assertSame('POST', '/contactgroups', { name: 'x' })).status, 403);
  });

  it('the discovery root and the v0 document are served under both', async () => {
    const root = await assertSame('GET', '/');
    assert.equal(root.status, 302);
    const rootNoSlash = await call(alternate.replace(/\/legacy$/, ''), 'GET', '/legacy', undefined);
    assert.equal(rootNoSlash.status, 302, 'the bare prefix is the root');
    assert.equal((await assertSame('GET', '/openapi.json', undefined, false)).status, 200);
  });

  it('writes made under the alternate address are the same resources under the primary one', async () => {
    const token = await teamToken();
    const created = await call(alternate, 'POST', '/lists', token, { name: 'Made under /legacy', kind: 'tasks' });
    assert.equal(created.status, 201, created.text);
    const list = JSON.parse(created.text) as { _id: string };
    const read = await call(primary, 'GET', `/lists/${list._id}`, token);
    assert.equal(read.status, 200);
    assert.equal(read.text, created.text);
    const hook = await call(primary, 'POST', '/webhooks', token, { url: 'https://hooks.example.com/base-urls' });
    assert.equal(hook.status, 201);
    const hookId = (JSON.parse(hook.text) as { _id: string })._id;
    assert.equal((await call(alternate, 'DELETE', `/webhooks/${hookId}`, token)).status, 204);
    assert.equal((await call(primary, 'GET', `/webhooks/${hookId}`, token)).status, 404);
  });

  it('only the configured prefix is stripped, at a path boundary, keeping the query', () => {
    const prefixes = v0PathPrefixes(cell.config);
    assert.deepEqual(prefixes, ['/legacy']);
    assert.equal(stripV0Prefix(prefixes, '/legacy/tasks?page=2'), '/tasks?page=2');
    assert.equal(stripV0Prefix(prefixes, '/legacy?x=1'), '/?x=1');
    assert.equal(stripV0Prefix(prefixes, '/legacy'), '/');
    assert.equal(stripV0Prefix(prefixes, '/legacytasks'), '/legacytasks');
    assert.equal(stripV0Prefix(prefixes, '/tasks'), '/tasks');
    assert.deepEqual(v0PathPrefixes(testConfig({ V0_BASE_URL: 'https://api.example.com/v0', V0_BASE_URL_ALT: 'https://legacy.example.com/api/v0/' })), ['/api/v0', '/v0']);
    assert.deepEqual(v0PathPrefixes(testConfig({})), [], 'host-only addresses need no rewrite');
  });

  it('a base address with a query or fragment is refused at start-up', () => {
    assert.throws(() => loadConfig({ V0_BASE_URL_ALT: 'https://legacy.example.com/x?y=1' }), /V0_BASE_URL_ALT/);
    assert.throws(() => loadConfig({ V0_BASE_URL: 'https://legacy.example.com/#x' }), /V0_BASE_URL/);
  });
});
