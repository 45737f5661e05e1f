import { Redis, type RedisOptions } from 'ioredis';
import { type AppConfig, DependencyTimeoutError, startDependencyCall } from '@workcell/config';

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

/**
 * Runs a command once the connection is ready: a connection still being (re)established gets up to
 * `timeoutMs` (or what is left of the request's dependency budget, if less), so a request right after start-up
 * or a reconnect waits briefly instead of failing, while an unreachable or silent Redis fails within the time
 * (DependencyTimeoutError). A spent budget fails at once, without sending the command.
 */
export async function whenReady<T>(redis: Redis, timeoutMs: number, command: () => Promise<T>): Promise<T> {
  const call = startDependencyCall(timeoutMs);
  const ms = call.timeoutMs;
  if (ms <= 0) {
    call.end();
    throw new DependencyTimeoutError('Redis', timeoutMs);
  }
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyTimeoutError('Redis', ms)), ms);
  });
  const ready = (): Promise<void> => {
    if (redis.status === 'ready') return Promise.resolve();
    if (redis.status === 'wait') redis.connect().catch(() => undefined);
    return new Promise((resolve) => {
      onReady = resolve;
      redis.once('ready', onReady);
    });
  };
  try {
    return await Promise.race([ready().then(command), timeout]);
  } finally {
    call.end();
    clearTimeout(timer);
    // A request that gave up stops waiting for the reconnect (a long outage would pile up listeners).
    if (onReady) redis.removeListener('ready', onReady);
  }
}

/** Resolves when Redis answers PING within the timeout; rejects otherwise. */
export async function pingRedis(redis: Redis, timeoutMs: number): Promise<void> {
  const answer = await whenReady(redis, timeoutMs, () => redis.ping());
  if (answer !== 'PONG') throw new Error(`Redis answered ${answer}`);
}

export type { Redis };

export { authorizationEpochKeys, changingAuthorization, PENDING_TTL_MS } from './authorization-epochs.js';
