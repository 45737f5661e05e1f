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
});
