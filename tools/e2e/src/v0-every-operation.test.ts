import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApiV1App } from '@workcell/api-v1';
import { V1_SCOPES } from '@workcell/credentials';
import { issueCredential, issueFeedToken, inTransaction } from '@workcell/db';
import { openApiDocument, type V0OperationDefinition, v0Operations } from '@workcell/registry';
import { type RunningApp, startApp, useTestEnvironment } from '@workcell/testing';
import { callApi } from './support/v1.js';
import { callV0, type LegacyReply, legacyErrorOf, startV0Cell, V0_RECIPES, type V0Cell } from './support/v0.js';

/**
 * Issue 5, "done when": every one of the 87 v0 operations has a test of its success path and one of an error
 * path against the running service. Driven by the registry, so an operation added to it without both is a
 * failure here: each operation is sent once as it should succeed and once as it must fail, and the answers
 * are checked against contract 4.1/7.1 (status, legacy shapes, no body on 204). The resource families' own
 * test files go deeper; this one guarantees nothing is left out.
 */

const env = useTestEnvironment();

type Legacy = { _id: string } & Record<string, unknown>;
type Outcome = { readonly status: number; readonly shape: 'object' | 'array' | 'empty' | 'error' | 'redirect' | 'calendar' };

describe('v0: a success and an error path for every operation of the registry', () => {
  let cell: V0Cell;
  let v1: RunningApp;
  let token: string;
  let pat: string;
  let feedToken: string;
  let contactId: string;
  const fixtures = new Map<string, string>();
  const covered = new Map<string, { success: boolean; error: boolean }>();

  /** `bearer` null: no Authorization header at all. */
  const call = <T = unknown>(method: string, path: string, body?: unknown, bearer: string | null = token) => callV0<T>(cell.v0, method, path, bearer ?? undefined, body);
  const v1Create = async (path: string, body: object): Promise<string> => {
    const reply = await callApi<{ data: { id: string } }>(v1, 'POST', path, pat, body);
    assert.equal(reply.status, 201, `${path}: ${JSON.stringify(reply.body)}`);
    return reply.body.data.id;
  };
  /** A fresh resource of a v0 collection with writes, created through v0. */
  const fresh = async (segment: string): Promise<string> => {
    const reply = await call<Legacy>('POST', `/${segment}`, V0_RECIPES[segment]!.create(contactId));
    assert.equal(reply.status, 201, `${segment}: ${reply.text}`);
    return reply.body._id;
  };
  /** The v0 document declares what the service sends (issue 29): every status seen here, and the feed's media type. */
  const document = JSON.parse(openApiDocument('v0').text) as {
    paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
    components: { responses: Record<string, { content?: Record<string, unknown> }> };
  };
  const declared = (op: V0OperationDefinition, reply: LegacyReply, what: string) => {
    const response = document.paths[op.path]![op.method.toLowerCase()]!.responses[String(reply.status)];
    assert.ok(response, `${what}: ${reply.status} is not declared in the v0 document`);
    const content = document.components.responses[(response.$ref ?? '').replace('#/components/responses/', '')]?.content;
    const type = reply.headers.get('content-type')?.split(';')[0];
    if (type && reply.text !== '') assert.ok(content && type in content, `${what}: ${reply.status} ${type} is not declared in the v0 document`);
  };
  const check = (op: V0OperationDefinition, kind: 'success' | 'error', reply: LegacyReply, expected: Outcome) => {
    const what = `${kind} path of ${op.method} ${op.path}`;
    assert.equal(reply.status, expected.status, `${what}: ${reply.text}`);
    declared(op, reply, what);
    if (expected.shape === 'error') legacyErrorOf(reply);
    if (expected.shape === 'object')
      assert.ok(reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body) && typeof (reply.body as Legacy)._id === 'string', `${what}: a legacy resource`);
    if (expected.shape === 'array') assert.ok(Array.isArray(reply.body), `${what}: a legacy collection`);
    if (expected.shape === 'empty') assert.equal(reply.text, '', `${what}: no body`);
    if (expected.shape === 'redirect') assert.ok(reply.headers.get('location'), `${what}: Location`);
    if (expected.shape === 'calendar') assert.match(reply.text, /^BEGIN:VCALENDAR\r\n/);
    const entry = covered.get(op.operationId) ?? { success: false, error: false };
    entry[kind] = true;
    covered.set(op.operationId, entry);
  };

  beforeAll(async () => {
    cell = await startV0Cell(env);
    v1 = await startApp(createApiV1App, cell.config);
    token = await cell.team.token();
    const { workspaceId, memberId } = cell.team;
    pat = (await inTransaction(cell.database, (tx) => issueCredential(tx, cell.config, { workspaceId, kind: 'personal_access_token', name: 'every-op', scopes: V1_SCOPES, memberId }))).token;
    feedToken = await inTransaction(cell.database, (tx) => issueFeedToken(tx, cell.config, { workspaceId, memberId }));
    contactId = await fresh('contacts');
    // Resources v0 can read but not write: made through v1.
    const projectId = await v1Create('/v1/projects', { name: 'Statement project' });
    fixtures.set('tags', await v1Create('/v1/tags', { name: 'Sample tag' }));
    fixtures.set('services', await v1Create('/v1/services', { name: 'Sample service' }));
    fixtures.set('contactgroups', await v1Create('/v1/contact-groups', { name: 'Sample contact group' }));
    fixtures.set('projectTemplates', await v1Create('/v1/project-templates', { name: 'Sample template' }));
    fixtures.set('journalEntries', await v1Create('/v1/project-statements', { projectId, kind: 'expense', occurredOn: '2026-03-01', quantity: '1', unitPrice: { amount: '10', currency: 'EUR' } }));
    fixtures.set('users', memberId);
  });

  afterAll(async () => {
    await v1?.close();
    await cell?.close();
  });

  it('answers each operation on its success path and on an error path', async () => {
    for (const op of v0Operations) {
      const segment = op.path.split('/')[1] ?? '';
      const byId = op.path.includes('{_id}');
      const path = (id: string) => op.path.replace('{_id}', id);

      if (op.availability === 'unavailable') {
        // Its contract behaviour is the refusal (403, naming v1, with Deprecation); without a token it is 401 first.
        const body = op.method === 'DELETE' && !op.bodyAlias ? undefined : { _id: randomUUID(), name: 'x' };
        const refused = await call(op.method, path(randomUUID()), body);
        check(op, 'success', refused, { status: 403, shape: 'error' });
        assert.ok(refused.headers.get('deprecation'), `${op.operationId}: Deprecation`);
        check(op, 'error', await call(op.method, path(randomUUID()), body, null), { status: 401, shape: 'error' });
        continue;
      }
      if (op.path === '/') {
        check(op, 'success', await call('GET', '/', undefined, null), { status: 302, shape: 'redirect' });
        // Public, limited per address and path: the 101st request of the minute is 429.
        let last: LegacyReply | undefined;
        for (let i = 0; i < 101; i++) last = await call('GET', '/', undefined, null);
        check(op, 'error', last!, { status: 429, shape: 'error' });
        continue;
      }
      if (op.path === '/calendar/{token}.ics') {
        check(op, 'success', await call('GET', `/calendar/${feedToken}.ics`, undefined, null), { status: 200, shape: 'calendar' });
        check(op, 'error', await call('GET', `/calendar/${feedToken.slice(0, -2)}xx.ics`, undefined, null), { status: 404, shape: 'error' });
        continue;
      }
      if (op.path === '/tasks/{_id}/startTracking' || op.path === '/tasks/{_id}/stopTracking') {
        const taskId = await fresh('tasks');
        const start = op.path.endsWith('startTracking');
        if (start) {
          check(op, 'success', await call('POST', path(taskId), {}), { status: 200, shape: 'object' });
          check(op, 'error', await call('POST', path(taskId), {}), { status: 400, shape: 'error' });
          await call('POST', `/tasks/${taskId}/stopTracking`, {});
        } else {
          await call('POST', `/tasks/${taskId}/startTracking`, {});
          check(op, 'success', await call('POST', path(taskId), {}), { status: 200, shape: 'object' });
          check(op, 'error', await call('POST', path(taskId), {}), { status: 400, shape: 'error' });
        }
        continue;
      }

      if (op.method === 'GET' && !byId) {
        check(op, 'success', await call('GET', op.path), { status: 200, shape: 'array' });
        check(op, 'error', await call('GET', `${op.path}?page=0`), { status: 400, shape: 'error' });
        continue;
      }
      if (op.method === 'GET') {
        const id = fixtures.get(segment) ?? (await fresh(segment));
        check(op, 'success', await call('GET', path(id)), { status: 200, shape: 'object' });
        check(op, 'error', await call('GET', path(randomUUID())), { status: 404, shape: 'error' });
        continue;
      }
      const recipe = V0_RECIPES[segment];
      assert.ok(recipe, `${op.operationId}: a body recipe for /${segment}`);
      if (op.method === 'POST') {
        check(op, 'success', await call('POST', op.path, recipe.create(contactId)), { status: 201, shape: 'object' });
        check(op, 'error', await call('POST', op.path, '{"not json'), { status: 400, shape: 'error' });
        continue;
      }
      if (op.method === 'PUT') {
        const id = await fresh(segment);
        const update = recipe.update ?? {};
        if (op.bodyAlias) {
          check(op, 'success', await call('PUT', op.path, { ...update, _id: id }), { status: 200, shape: 'object' });
          check(op, 'error', await call('PUT', op.path, update), { status: 400, shape: 'error' });
        } else {
          check(op, 'success', await call('PUT', path(id), update), { status: 200, shape: 'object' });
          check(op, 'error', await call('PUT', path(randomUUID()), update), { status: 404, shape: 'error' });
        }
        continue;
      }
      // DELETE archives: 204 without a body, then the resource is gone for v0.
      const id = await fresh(segment);
      if (op.bodyAlias) {
        check(op, 'success', await call('DELETE', op.path, { _id: id }), { status: 204, shape: 'empty' });
        check(op, 'error', await call('DELETE', op.path, {}), { status: 400, shape: 'error' });
      } else {
        check(op, 'success', await call('DELETE', path(id)), { status: 204, shape: 'empty' });
        check(op, 'error', await call('DELETE', path(id)), { status: 404, shape: 'error' });
      }
    }
    const missing = v0Operations.filter((op) => !(covered.get(op.operationId)?.success && covered.get(op.operationId)?.error)).map((op) => op.operationId);
    assert.deepEqual(missing, [], 'every operation has both paths');
    assert.equal(covered.size, 87);
  });
});
