import assert from 'node:assert/strict';
import { z } from 'zod';
import { testConfig } from '@workcell/testing';
import type { Database } from '@workcell/db';
import * as domain from '../index.js';
import type { V1AuthContext } from './auth-context.js';
import { defineProcedure, invoke, operationOf, type Procedure, type ProcedureContext } from './procedure.js';

const procedures = (Object.values(domain) as unknown[]).filter(
  (value): value is Procedure<z.ZodType, unknown> => typeof value === 'object' && value !== null && 'handler' in value && 'input' in value && typeof value.handler === 'function',
);

const ctx: ProcedureContext = { database: {} as Database, config: testConfig(), now: () => new Date('2026-11-28T12:00:00Z') };
const auth = { workspaceId: '01a1fc94-97ea-7433-a1ba-8714884845a1', principal: { type: 'member', id: '01a1fc94-97ea-7433-a1ba-8714884845a2' } } as V1AuthContext;

describe('procedures take their caller from the operation (issue 28)', () => {
  it('no procedure input declares the caller or the request id: they travel in the operation', () => {
    assert.ok(procedures.length > 200, `found ${procedures.length} procedures`);
    const carrying = procedures.filter((p) => p.input instanceof z.ZodObject && ['auth', 'requestId'].some((key) => key in (p.input as z.ZodObject).shape)).map((p) => p.name);
    assert.deepEqual(carrying, []);
  });

  it('a caller smuggled into the input is refused, never taken as the caller', async () => {
    const whoAmI = defineProcedure('whoAmI', z.object({}).strict(), async (op) => op.auth.principal.id);
    const op = operationOf(ctx, auth, 'req-1');
    assert.equal(await invoke(whoAmI, op, {}), auth.principal.id);
    await assert.rejects(invoke(whoAmI, op, { auth: { ...auth, principal: { type: 'member', id: 'someone-else' } } }), (error: { code?: string }) => error.code === 'validation_failed');
  });

  it('the operation carries the request id and, for v0, the token member', () => {
    assert.deepEqual(operationOf(ctx, auth, 'req-1'), { ...ctx, auth, requestId: 'req-1' });
    assert.equal(operationOf(ctx, auth, null, null).tokenMemberId, null);
  });
});
