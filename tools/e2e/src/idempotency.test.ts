import assert from 'node:assert/strict';
import { type Database, type DemoTokens, purgeExpiredIdempotencyRecords } from '@workcell/db';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';

const env = useTestEnvironment();

type ErrorDocument = { errors: { code: string }[] };

describe('Idempotency-Key on idempotent POSTs (contract 4.4, 7.4)', () => {
  let cell: V1Cell;
  let database: Database;
  let tokens: DemoTokens;
  let v1: RunningApp;
  let v1b: RunningApp;

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, demo: tokens, v1, v1b } = cell);
  });
  afterAll(() => cell?.close());

  const createRole = (base: RunningApp, name: string, key?: string) =>
    fetch(`${base.url}/v1/roles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.personalAccessToken}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ name, permissions: ['projects:read'] }),
    });
  const rolesNamed = (name: string) => database.prisma.role.count({ where: { workspaceId: tokens.workspaceId, name } });

  it('replays the original status and body for the same key and payload, creating once', async () => {
    const first = await createRole(v1, 'Idempotent A', 'key-aaaaaaaa-0001');
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotency-replayed'), 'false');
    const body = await first.json();
    const replay = await createRole(v1b, 'Idempotent A', 'key-aaaaaaaa-0001');
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(await replay.json(), body);
    assert.equal(await rolesNamed('Idempotent A'), 1);
  });

  it('answers 409 idempotency_key_reused for the same key with another payload, writing nothing', async () => {
    assert.equal((await createRole(v1, 'Idempotent B', 'key-bbbbbbbb-0001')).status, 201);
    const reused = await createRole(v1, 'Idempotent B2', 'key-bbbbbbbb-0001');
    assert.equal(reused.status, 409);
    assert.equal(((await reused.json()) as ErrorDocument).errors[0]?.code, 'idempotency_key_reused');
    assert.equal(await rolesNamed('Idempotent B2'), 0);
  });

  it('answers 400 invalid_idempotency_key for an invalid key', async () => {
    for (const key of ['short', 'x'.repeat(256)]) {
      const res = await createRole(v1, 'Idempotent C', key);
      assert.equal(res.status, 400, key);
      assert.equal(((await res.json()) as ErrorDocument).errors[0]?.code, 'invalid_idempotency_key', key);
    }
    assert.equal(await rolesNamed('Idempotent C'), 0);
  });

  it('identical concurrent requests create exactly one resource; the others see in-progress or the replay', async () => {
    // Service-account names are not unique, so only the key can keep these from creating ten.
    const createServiceAccount = (base: RunningApp) =>
      fetch(`${base.url}/v1/service-accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.personalAccessToken}`, 'content-type': 'application/json', 'idempotency-key': 'key-dddddddd-0001' },
        body: JSON.stringify({ name: 'Idempotent D' }),
      });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createServiceAccount(i % 2 ? v1 : v1b)));
    const statuses = results.map((r) => r.status);
    assert.equal(await database.prisma.serviceAccount.count({ where: { workspaceId: tokens.workspaceId, name: 'Idempotent D' } }), 1);
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(statuses),
    );
    for (const res of results.filter((r) => r.status === 409)) {
      assert.equal(((await res.json()) as ErrorDocument).errors[0]?.code, 'idempotency_request_in_progress');
    }
    assert.ok(statuses.filter((s) => s === 201).length >= 1);
  });

  it('without a key, each request creates', async () => {
    assert.equal((await createRole(v1, 'Idempotent E')).status, 201);
    assert.equal((await createRole(v1, 'Idempotent E2')).status, 201);
  });

  it('keeps keys 24 hours, then the worker purge frees them', async () => {
    const record = await database.prisma.idempotencyRecord.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId, key: 'key-aaaaaaaa-0001' } });
    const hours = (record.expiresAt.getTime() - record.createdAt.getTime()) / 3_600_000;
    assert.ok(hours >= 24 && hours < 24.2, `kept ${hours} h`);
    assert.equal(await purgeExpiredIdempotencyRecords(database, new Date(Date.now() + 23 * 3_600_000)), 0);
    assert.ok((await purgeExpiredIdempotencyRecords(database, new Date(Date.now() + 25 * 3_600_000))) >= 3);
  });
});
