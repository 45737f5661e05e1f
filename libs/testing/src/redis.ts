import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig } from '@workcell/config';

/** A key prefix of its own for one test file, so files share the Redis server but never each other's keys. */
export function createRedisPrefix(): string {
  return `wct:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under the prefix. */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(loadConfig().redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
