import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { routeCoverage } from '@workcell/http';
import { v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi, errorOf } from './support/v1.js';

/**
 * Contract 5.3 for every served v1 operation, driven by the registry: a credential holding every scope except
 * the operation's own gets 403 `insufficient_scope` naming the missing scope(s) — before any validation,
 * lookup or write — and the same request with the scope does not. The resource families' files test what each
 * scope then allows; this one guarantees no served operation forgets its guard.
 */

const env = useTestEnvironment();

describe('v1: every served operation requires its scopes', () => {
  let cell: V1Cell;

  beforeAll(async () => {
    cell = await startV1Cell(env);
  });
  afterAll(() => cell?.close());

  type Requests = Record<string, () => Promise<{ method: string; path: string; body?: unknown }>>;

  /**
   * For every served operation of a dynamic scope rule (each must have a request): a credential holding every scope
   * but `withheld` gets 403 insufficient_scope naming it, and the same request with every scope passes.
   */
  const refusesWithout = async (rule: string, withheld: string, requests: Requests, admin: string) => {
    const served = new Set(routeCoverage(cell.v1.app as NestFastifyApplication).implemented);
    const dynamic = v1Operations.filter((op) => op.dynamicScopes === rule && served.has(op.operationId)).map((op) => op.operationId);
    assert.deepEqual(Object.keys(requests).sort(), dynamic.sort(), `a request for every served ${rule} operation`);
    const without = await cell.mint(V1_SCOPES.filter((s) => s !== withheld));
    for (const operationId of dynamic) {
      const { method, path, body } = await requests[operationId]!();
      const refused = await callApi(cell.v1, method, path, without, body);
      assert.equal(refused.status, 403, `${operationId}: ${JSON.stringify(refused.body)}`);
      assert.equal(errorOf(refused).code, 'insufficient_scope', operationId);
      assert.ok(errorOf(refused).detail.includes(withheld), operationId);
      const allowed = await callApi(cell.v1, method, path, admin, body);
      assert.ok(allowed.status >= 200 && allowed.status < 300, `${operationId}: ${allowed.status} ${JSON.stringify(allowed.body)}`);
    }
  };

  it('answers 403 insufficient_scope naming the scope to a credential without it', async () => {
    const served = new Set(routeCoverage(cell.v1.app as NestFastifyApplication).implemented);
    const guarded = v1Operations.filter((op) => served.has(op.operationId) && op.authenticated && (op.scopes.length > 0 || op.anyOfScopes.length > 0));
    assert.ok(guarded.length > 120, `${guarded.length} guarded operations served`);
    const tokens = new Map<string, string>();
    const tokenWithout = async (withheld: readonly string[]) => {
      const key = [...withheld].sort().join(' ');
      if (!tokens.has(key)) tokens.set(key, await cell.mint(V1_SCOPES.filter((s) => !withheld.includes(s))));
      return tokens.get(key)!;
    };
    for (const op of guarded) {
      const path = op.path.replace(/\{\w+\}/g, () => randomUUID());
      const withheld = [...op.scopes, ...op.anyOfScopes];
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      const reply = await callApi(cell.v1, op.method, path, await tokenWithout(withheld), body, op.concurrency === 'if-match' ? { 'if-match': '"1"' } : {});
      assert.equal(reply.status, 403, `${op.operationId}: ${JSON.stringify(reply.body)}`);
      const error = errorOf(reply);
      assert.equal(error.code, 'insufficient_scope', op.operationId);
      for (const scope of op.scopes) assert.ok(error.detail.includes(scope), `${op.operationId} names ${scope}`);
      // With every scope the guard lets it through (whatever the handler then answers for a made-up id or body).
      const allowed = await callApi(cell.v1, op.method, path, await tokenWithout([]), body, op.concurrency === 'if-match' ? { 'if-match': '"1"' } : {});
      assert.notEqual((allowed.body as { errors?: { code: string }[] } | undefined)?.errors?.[0]?.code, 'insufficient_scope', op.operationId);
    }
  });

  /**
   * The registry's dynamic rule `target-resource` (5.3: comments and activity "also need the matching contact, project
   * or task read scope"): the static any-of check cannot tell which, so for every served operation declaring it a
   * credential holding every scope but the target type's read scope gets 403 `insufficient_scope` naming it.
   */
  it("answers 403 insufficient_scope naming the target type's read scope for every served 'target-resource' operation", async () => {
    const admin = await cell.mint(V1_SCOPES);
    const post = async (path: string, body: unknown) => {
      const reply = await callApi<{ data: { id: string } }>(cell.v1, 'POST', path, admin, body);
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body.data.id;
    };
    const task = await post('/v1/tasks', { title: 'A target' });
    const comment = () => post('/v1/comments', { targetType: 'tasks', targetId: task, body: 'On a task' });
    const requests: Requests = {
      listComments: async () => ({ method: 'GET', path: `/v1/comments?targetType=tasks&targetId=${task}` }),
      createComment: async () => ({ method: 'POST', path: '/v1/comments', body: { targetType: 'tasks', targetId: task, body: 'Another' } }),
      getComment: async () => ({ method: 'GET', path: `/v1/comments/${await comment()}` }),
      updateComment: async () => ({ method: 'PATCH', path: `/v1/comments/${await comment()}`, body: { body: 'Edited' } }),
      deleteComment: async () => ({ method: 'DELETE', path: `/v1/comments/${await comment()}` }),
      listActivity: async () => ({ method: 'GET', path: `/v1/activity?targetType=tasks&targetId=${task}` }),
    };
    await refusesWithout('target-resource', 'tasks:read', requests, admin);
  });

  /**
   * The registry's dynamic rule `automation-flow` (5.3: automation writes "also need the scopes implied by the
   * flow"): for every served operation declaring it, a credential holding every scope but the flow's action scope
   * (tasks:write for a tasks.create step) gets 403 `insufficient_scope` naming it, and nothing is written.
   */
  it("answers 403 insufficient_scope naming the flow's scopes for every served 'automation-flow' operation", async () => {
    const admin = await cell.mint(V1_SCOPES);
    const flow = { name: 'Flow', trigger: { eventType: 'task.created', conditions: { 'task.title': 'never' } }, steps: [{ actionId: 'tasks.create', input: { title: 'Made' } }] };
    const definition = async () => {
      const reply = await callApi<{ data: { id: string } }>(cell.v1, 'POST', '/v1/automation-definitions', admin, flow);
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body.data.id;
    };
    const requests: Requests = {
      createAutomationDefinition: async () => ({ method: 'POST', path: '/v1/automation-definitions', body: flow }),
      updateAutomationDefinition: async () => ({ method: 'PATCH', path: `/v1/automation-definitions/${await definition()}`, body: { expectedVersion: '1', name: 'Renamed' } }),
      publishAutomationDefinition: async () => ({ method: 'POST', path: `/v1/automation-definitions/${await definition()}/publish`, body: { expectedVersion: '1' } }),
    };
    await refusesWithout('automation-flow', 'tasks:write', requests, admin);
  });
});
