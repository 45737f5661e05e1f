import { Redis, type RedisOptions } from 'ioredis';
import type { AppConfig } from '@workcell/config';
import { whenReady } from './commands.js';

/**
 * Redis connections. Commands fail fast while Redis is unreachable (no offline queue, one attempt), so a
 * request answers 503 at once instead of hanging; the connection keeps reconnecting in the background and
 * recovers by itself when Redis is back. A Redis that stops answering without closing (a partition) fails each
 * command at its timeout: the request's dependency budget (whenReady), and commandTimeout as the backstop.
 */
export function redisOptions(config: AppConfig): RedisOptions {
  return {
    connectTimeout: config.dependencyTimeoutMs,
    commandTimeout: config.dependencyTimeoutMs,
    // A peer that vanished without a word is found by TCP keepalive, so the connection is re-established.
    keepAlive: 10_000,
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

/** Resolves when Redis answers PING within the timeout; rejects otherwise. */
export async function pingRedis(redis: Redis, timeoutMs: number): Promise<void> {
  const answer = await whenReady(redis, timeoutMs, () => redis.ping());
  if (answer !== 'PONG') throw new Error(`Redis answered ${answer}`);
}

export type { Redis };

export { authorizationEpochKeys, changingAuthorization, PENDING_TTL_MS } from './authorization-epochs.js';
export { runScript, whenReady } from './commands.js';
