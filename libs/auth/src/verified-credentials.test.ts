import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createDatabase, type Database } from '@workcell/db';
import { DomainError, type ProcedureContext } from '@workcell/domain';
import { RateLimiter } from '@workcell/http';
import { createRedis, type Redis } from '@workcell/redis';
import { useTestEnvironment } from '@workcell/testing';
import { type CredentialKind, VerifiedCredentials } from './verified-credentials.js';

const env = useTestEnvironment({ V1_RATE_LIMIT_READ_PER_MINUTE: '1000' });

interface Identified {
  readonly workspaceId: string;
  readonly id: string;
}

/**
 * The in-process verification against real Redis: what is asked of the database (identify, verify) is counted, so
 * the tests show when a kept verification is used and when the database is asked again — never by timing.
 */
describe('verified credentials kept in an API instance', () => {
  let redis: Redis;
  let database: Database;
  const workspaceId = '00000000-0000-4000-8000-000000000001';
  const calls = { identify: 0, verify: 0 };
  let state: 'active' | 'revoked' = 'active';
  let expiresAt: number | null = null;
  let duringVerify: (() => Promise<void>) | undefined;

  const kind: CredentialKind<Identified, { workspaceId: string; id: string }> = {
    identify: async (_ctx, token) => {
      calls.identify++;
      return token.startsWith('known') ? { workspaceId, id: token } : null;
    },
    subject: (identified) => `c:${identified.id}`,
    verify: async (_ctx, identified) => {
      calls.verify++;
      const seen = state;
      await duringVerify?.();
      return seen === 'active' ? { ok: true, context: { workspaceId: identified.workspaceId, id: identified.id } } : { ok: false, error: new DomainError('credential_revoked', 'revoked') };
    },
    expiresAt: () => expiresAt,
    unauthenticated: () => new DomainError('unauthenticated', 'unknown'),
  };

  let credentials: VerifiedCredentials<Identified, { workspaceId: string; id: string }>;
  const request = { ip: '127.0.0.1', method: 'GET', url: '/v1/things', routeOptions: { url: '/v1/things' }, params: {} } as unknown as FastifyRequest;
  const headers = new Map<string, string>();
  const reply = { header: (name: string, value: string) => headers.set(name, value) } as unknown as FastifyReply;
  const authenticate = (token: string | null) => credentials.authenticate(request, reply, token);
  const counted = async (token: string) => {
    const before = { ...calls };
    await authenticate(token);
    return { identify: calls.identify - before.identify, verify: calls.verify - before.verify };
  };

  beforeAll(() => {
    redis = createRedis(env.config, 'verified-credentials-test');
    database = createDatabase(env.config, { poolSize: 1 });
    const ctx: ProcedureContext = { database, config: env.config, now: () => new Date() };
    credentials = new VerifiedCredentials(kind, ctx, new RateLimiter('v1', env.config, redis), { maxEntries: 2, maxAgeMs: 60_000 });
  });
  afterAll(async () => {
    await database.close();
    await redis.quit();
  });

  it('asks the database once, then answers from memory with the rate-limit headers of each request', async () => {
    assert.deepEqual(await counted('known-a'), { identify: 1, verify: 1 });
    const remaining = Number(headers.get('x-ratelimit-remaining'));
    assert.deepEqual(await counted('known-a'), { identify: 0, verify: 0 });
    assert.equal(Number(headers.get('x-ratelimit-remaining')), remaining - 1, 'a kept verification is still counted');
  });

  it('verifies again on the next request after any authorization change of the workspace, and sees the change', async () => {
    await authenticate('known-a');
    await database.changeAuthorization(workspaceId, async () => undefined);
    assert.deepEqual(await counted('known-a'), { identify: 0, verify: 1 }, 'the lookup is kept; the verdict is not');
    await database.changeAuthorization(workspaceId, async () => {
      state = 'revoked';
    });
    try {
      await assert.rejects(authenticate('known-a'), (error: unknown) => error instanceof DomainError && error.code === 'credential_revoked');
    } finally {
      state = 'active';
      await database.changeAuthorization(workspaceId, async () => undefined);
    }
    assert.deepEqual(await counted('known-a'), { identify: 1, verify: 1 }, 'a refusal kept nothing');
    assert.deepEqual(await counted('known-a'), { identify: 0, verify: 0 });
  });

  it('keeps nothing verified while a change is in progress (it may predate the commit)', async () => {
    await database.changeAuthorization(workspaceId, async () => {
      assert.deepEqual(await counted('known-b'), { identify: 1, verify: 1 });
      assert.deepEqual(await counted('known-b'), { identify: 1, verify: 1 });
    });
    assert.deepEqual(await counted('known-b'), { identify: 1, verify: 1 }, 'verified again once the change is over');
    assert.deepEqual(await counted('known-b'), { identify: 0, verify: 0 });
  });

  it('a change that commits while a verification reads the old state leaves nothing stale behind', async () => {
    await database.changeAuthorization(workspaceId, async () => undefined);
    // The verification reads 'active'; the change (revocation) begins and commits before the verification ends.
    duringVerify = async () => {
      duringVerify = undefined;
      await database.changeAuthorization(workspaceId, async () => {
        state = 'revoked';
      });
    };
    try {
      assert.deepEqual(await authenticate('known-c'), { workspaceId, id: 'known-c' }, 'answered from the state it read');
      await assert.rejects(authenticate('known-c'), (error: unknown) => error instanceof DomainError && error.code === 'credential_revoked');
    } finally {
      state = 'active';
      await database.changeAuthorization(workspaceId, async () => undefined);
    }
  });

  it('never keeps a refusal, an unknown token or an expired verification', async () => {
    await assert.rejects(authenticate('unknown'), (error: unknown) => error instanceof DomainError && error.code === 'unauthenticated');
    const before = { ...calls };
    await assert.rejects(authenticate('unknown'), (error: unknown) => error instanceof DomainError && error.code === 'unauthenticated');
    assert.deepEqual({ identify: calls.identify - before.identify, verify: calls.verify - before.verify }, { identify: 1, verify: 0 }, 'an unknown token is looked up again');
    await assert.rejects(authenticate(null), (error: unknown) => error instanceof DomainError && error.code === 'unauthenticated');
    expiresAt = Date.now() - 1;
    try {
      assert.deepEqual(await counted('known-d'), { identify: 1, verify: 1 });
      assert.deepEqual(await counted('known-d'), { identify: 0, verify: 1 }, 'past its expiry a kept verification is redone');
    } finally {
      expiresAt = null;
    }
  });

  it('keeps at most maxEntries verifications, the oldest going first', async () => {
    credentials.clear();
    for (const token of ['known-1', 'known-2', 'known-3']) await authenticate(token);
    assert.deepEqual(await counted('known-3'), { identify: 0, verify: 0 });
    assert.deepEqual(await counted('known-1'), { identify: 1, verify: 1 });
  });

  it('kept verifications are frozen: a handler cannot change what the next request sees', async () => {
    const context = await authenticate('known-3');
    assert.throws(() => {
      (context as { id: string }).id = 'changed';
    }, TypeError);
  });
});
