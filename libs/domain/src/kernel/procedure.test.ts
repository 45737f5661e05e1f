import assert from 'node:assert/strict';
import { z } from 'zod';
import { testConfig } from '@workcell/testing';
import type { Database } from '@workcell/db';
import * as domain from '../index.js';
import type { V1AuthContext } from './auth-context.js';
import { defineProcedure, invoke, operationOf, platformEvents, type Procedure, type ProcedureContext } from './procedure.js';

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

  it('op.transaction opens a transaction on the operation’s database, or joins the one it is', async () => {
    const opened: string[] = [];
    const pool = { prisma: { $transaction: (work: (tx: unknown) => Promise<unknown>) => (opened.push('opened'), work('new tx')) } } as unknown as Database;
    const op = operationOf({ ...ctx, database: pool }, auth, 'req-1');
    const tx = await op.transaction(async (opened) => opened);
    assert.equal(tx.prisma, 'new tx');
    assert.deepEqual(opened, ['opened']);
    // An automation step's operation: its database is the run's transaction, which the step's work joins.
    const step = operationOf({ ...ctx, database: tx }, auth, null);
    assert.equal(await step.transaction(async (joined) => joined), tx);
    assert.deepEqual(opened, ['opened'], 'no transaction of its own');
  });

  it('events name the operation: its workspace, its caller (nobody for a memberless v0 token), its cause and its held key', () => {
    const stated = { aggregateType: 'tag', aggregateId: auth.principal.id, eventType: 'tag.created', payload: {} };
    const op = operationOf(ctx, auth, 'req-1');
    assert.equal(op.requestId, 'req-1');
    assert.deepEqual(op.event(stated), { ...stated, workspaceId: auth.workspaceId, actor: { type: 'member', id: auth.principal.id }, cause: null, heldKey: null });
    // A literal naming another workspace is refused by the type; a value that carries one still emits in the caller's.
    const smuggled = { ...stated, workspaceId: '01a1fc94-97ea-7433-a1ba-8714884845a4' };
    assert.equal(op.event(smuggled).workspaceId, auth.workspaceId);
    const other = { ...auth, principal: { type: 'service_account' as const, id: '01a1fc94-97ea-7433-a1ba-8714884845a3' } };
    assert.deepEqual({ ...op, auth: other }.event(stated).actor, { type: 'service_account', id: other.principal.id }, 'a copy with another caller emits as that caller');
    assert.equal(operationOf(ctx, auth, null, { tokenMemberId: null }).event(stated).actor, null);
    const cause = { definitionId: auth.principal.id, runId: auth.workspaceId, depth: 2 };
    const idempotencyKey = { workspaceId: auth.workspaceId, recordId: auth.principal.id, mode: 'run' as const };
    const step = operationOf(ctx, auth, null, { cause, idempotencyKey }).event(stated);
    assert.deepEqual([step.cause, step.heldKey], [cause, idempotencyKey]);
    const elsewhere = '01a1fc94-97ea-7433-a1ba-8714884845a5';
    assert.deepEqual(platformEvents(elsewhere, cause).event(stated), { ...stated, workspaceId: elsewhere, actor: null, cause });
  });
});
