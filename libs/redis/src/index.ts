import { Cluster, type ClusterOptions, Redis as SingleRedis, type RedisOptions } from 'ioredis';
import type { AppConfig } from '@workcell/config';
import { type Redis, whenReady } from './commands.js';

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
    // A failover demoted the master this connection writes to: the command fails (503, unavailable.ts) and the
    // connection is made again, to the address's new master, rather than writing to a replica until it drops.
    reconnectOnError: (error) => (/^READONLY /.test(error.message) ? 1 : false),
    lazyConnect: true,
  };
}

/** The application's own key namespace; every key it writes lives under `${prefix}:`. */
export function keyPrefix(config: AppConfig): string {
  return `${config.redis.prefix}:`;
}

/** True when the config selects Redis Cluster mode. */
export function isClusterMode(config: AppConfig): boolean {
  return config.redis.clusterNodes.length > 0;
}

/**
 * A Redis Cluster client for the configured seed nodes, with `nodeOptions` for each node's connection and the
 * credentials and TLS of REDIS_URL. Offline queueing and lazy connecting are the caller's choice, as for one server.
 */
export function createCluster(config: AppConfig, nodeOptions: RedisOptions, clusterOptions: ClusterOptions = {}): Cluster {
  const url = new URL(config.redis.url);
  const { enableOfflineQueue, lazyConnect, retryStrategy, keyPrefix: prefix, ...perNode } = nodeOptions;
  return new Cluster([...config.redis.clusterNodes], {
    ...clusterOptions,
    ...(prefix === undefined ? {} : { keyPrefix: prefix }),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
    // Given only when set: an explicit undefined would replace ioredis's default and stop the reconnecting.
    ...(retryStrategy ? { clusterRetryStrategy: (attempt: number) => retryStrategy(attempt) } : {}),
    // Each node's connection; a node that answers MOVED/ASK is found through the slot map, not retried blindly.
    redisOptions: {
      ...perNode,
      username: url.username || undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      tls: url.protocol === 'rediss:' ? {} : undefined,
    },
    slotsRefreshTimeout: config.dependencyTimeoutMs,
  });
}

export function createRedis(config: AppConfig, connectionName: string): Redis {
  // Auto-pipelining: the commands of concurrent requests issued in one event-loop turn go out in one write (each API
  // request's gate is one script call; one write per request was a measured share of the API's CPU, docs/performance.md).
  const options: RedisOptions = { ...redisOptions(config), keyPrefix: keyPrefix(config), connectionName, enableAutoPipelining: true };
  const redis: Redis = isClusterMode(config) ? createCluster(config, options) : new SingleRedis(config.redis.url, options);
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

export { authorizationEpochKeys, changingAuthorization, PENDING_TTL_MS } from './authorization-epochs.js';
export { type Redis, runScript, whenReady } from './commands.js';
export { ADMIT_KNOWN, SLIDING_WINDOW } from './rate-limit-scripts.js';
