import { Redis, type RedisOptions } from 'ioredis';
import type { AppConfig } from '@workcell/config';

/**
 * Redis connections. Commands fail fast while Redis is unreachable (no offline queue, one attempt), so a
 * request answers 503 at once instead of hanging; the connection keeps reconnecting in the background and
 * recovers by itself when Redis is back.
 */
export function redisOptions(config: AppConfig): RedisOptions {
  return {
    connectTimeout: config.dependencyTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: true,
  };
}

/** The application's own key namespace; every key it writes lives under `${prefix}:`. */
export function keyPrefix(config: AppConfig): string {
  return `${config.redis.prefix}:`;
}

export function createRedis(config: AppConfig, connectionName: string): Redis {
  const redis = new Redis(config.redis.url, { ...redisOptions(config), keyPrefix: keyPrefix(config), connectionName });
  // Connection errors are reported through failed commands and readiness; an unhandled 'error' event would crash.
  redis.on('error', () => undefined);
  redis.connect().catch(() => undefined);
  return redis;
}

/**
 * Runs a command once the connection is ready: a connection still being (re)established gets up to
 * `timeoutMs`, so a request right after start-up or a reconnect waits briefly instead of failing, while
 * an unreachable Redis still fails within the timeout.
 */
export async function whenReady<T>(redis: Redis, timeoutMs: number, command: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const ready = (): Promise<void> => {
    if (redis.status === 'ready') return Promise.resolve();
    if (redis.status === 'wait') redis.connect().catch(() => undefined);
    return new Promise((resolve) => redis.once('ready', () => resolve()));
  };
  try {
    return await Promise.race([ready().then(command), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves when Redis answers PING within the timeout; rejects otherwise. */
export async function pingRedis(redis: Redis, timeoutMs: number): Promise<void> {
  const answer = await whenReady(redis, timeoutMs, () => redis.ping());
  if (answer !== 'PONG') throw new Error(`Redis answered ${answer}`);
}

export type { Redis };
