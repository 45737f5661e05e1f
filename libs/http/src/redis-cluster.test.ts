import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cluster } from 'ioredis';
import { authorizationEpochKeys, changingAuthorization, createRedis, keyPrefix, pingRedis, type Redis } from '@workcell/redis';
import { type HarnessService, startRedisCluster, useTestEnvironment } from '@workcell/testing';
import { RateLimiter } from './rate-limit.js';

/**
 * Redis Cluster mode (REDIS_CLUSTER_NODES, docs/scale-out.md) against a real three-master cluster the harness starts
 * for this file, in every run (the e2e suites run against one only in CI's cluster pass): the switch makes a
 * cluster client, the keys one script touches share a slot, the keys of different workspaces spread over the
 * masters, and a known credential's admission (one script: its keys share the workspace's slot) keeps its budget.
 */
const env = useTestEnvironment();

describe('Redis Cluster mode', () => {
  let cluster: HarnessService;
  let redis: Redis;
  let config: typeof env.config;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    config = { ...env.config, redis: { ...env.config.redis, clusterNodes: cluster.env['REDIS_CLUSTER_NODES']!.split(',').map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })) } };
    redis = createRedis(config, 'cluster-test');
    // The client answers once it has the slot map (commands before that fail fast: no offline queue).
    await pingRedis(redis, 10_000);
  }, 60_000);
  afterAll(async () => {
    await redis?.quit();
    await cluster?.stop();
  });

  const slot = async (key: string) => Number(await redis.call('CLUSTER', 'KEYSLOT', `${keyPrefix(config)}${key}`));

  it('REDIS_CLUSTER_NODES selects a cluster client', async () => {
    assert.equal(redis.isCluster, true);
    assert.equal(await redis.ping(), 'PONG');
  });

  it("a workspace's epoch keys and its credentials' budgets share one slot; workspaces spread over the masters", async () => {
    for (let i = 0; i < 24; i++) {
      const workspace = `0190${String(i).padStart(4, '0')}-0000-7000-8000-000000000000`;
      const keys = authorizationEpochKeys(workspace);
      const epoch = await slot(keys.epoch);
      assert.equal(await slot(keys.pending), epoch);
      assert.equal(await slot(`rl:v1:{${workspace}}:pat:x:read`), epoch);
      await changingAuthorization(redis, 2000, workspace, async () => undefined);
    }
    const holding = await Promise.all((redis as Cluster).nodes('master').map(async (node) => (await node.scan('0', 'MATCH', `${keyPrefix(config)}authz:*`, 'COUNT', 1000))[1].length));
    assert.ok(holding.filter((n) => n > 0).length > 1, `every workspace landed on one master: ${holding.join()}`);
  });

  it('admits a known credential in its own budget, whatever the refusals its address has spent', async () => {
    const limiter = new RateLimiter('v1', { ...config, v1RateLimits: { read: 3, write: 3 } }, redis);
    const request = { method: 'GET', ip: '192.0.2.7', url: '/v1/workspace', routeOptions: { url: '/v1/workspace' }, params: {} } as unknown as FastifyRequest;
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => void (headers[name] = value) } as unknown as FastifyReply;
    const workspace = '01900000-0000-7000-8000-0000000000aa';
    const first = await limiter.admitKnown(request, reply, 'pat:a', workspace);
    assert.equal(first.allowed, true);
    assert.equal(first.remaining, 2);
    assert.equal(first.epoch, 0);
    await changingAuthorization(redis, 2000, workspace, async () => undefined);
    assert.equal((await limiter.admitKnown(request, reply, 'pat:a', workspace)).epoch, 2, 'the epoch is read with the admission');
    // The address spends its whole budget on refusals: refused from then on, while a known credential is not.
    const refusal = new Error('refused');
    for (let i = 0; i < 3; i++) await assert.rejects(limiter.refuse(request, reply, refusal), (error) => error === refusal);
    await assert.rejects(limiter.refuse(request, reply, refusal), { status: 429 });
    assert.equal((await limiter.admitKnown(request, reply, 'pat:b', workspace)).remaining, 2);
  });
});
