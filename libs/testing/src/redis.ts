import { randomBytes } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { loadConfig } from '@workcell/config';

/** A key prefix of its own for one test file, so files share the Redis server but never each other's keys. */
export function createRedisPrefix(): string {
  return `wct:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under `prefix` on one server (in a cluster: one master). */
async function dropOn(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    // One UNLINK per key: keys of one scan may hash to different slots, which one command may not span.
    if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  } while (cursor !== '0');
}

/**
 * Deletes every key under the prefix: on the one Redis, and in Redis Cluster mode (REDIS_CLUSTER_NODES) on every
 * master of the cluster too (fault tests put their apps on the one Redis behind a proxy even then: testConfig).
 */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const config = loadConfig().redis;
  if (config.clusterNodes.length > 0) {
    const cluster = new Cluster([...config.clusterNodes], { lazyConnect: true, redisOptions: { maxRetriesPerRequest: 1 } });
    await cluster.connect();
    try {
      await Promise.all(cluster.nodes('master').map((node) => dropOn(node, prefix)));
    } finally {
      cluster.disconnect();
    }
  }
  const redis = new Redis(config.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    await dropOn(redis, prefix);
  } finally {
    redis.disconnect();
  }
}
