import { createHash } from 'node:crypto';
import type { Cluster, Redis as SingleRedis } from 'ioredis';

/**
 * The application's Redis: one server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). Both answer the same
 * commands; in a cluster every script's and MULTI's keys must share one hash slot, so keys touched together carry
 * one hash tag (`{…}`, docs/scale-out.md). The key prefix never contains braces (REDIS_PREFIX forbids them), so
 * the tag after it is the one that counts.
 */
export type Redis = SingleRedis | Cluster;
import { dependencyDeadline, DependencyTimeoutError, startDependencyCall } from '@workcell/config';

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
  let cancel: (() => void) | undefined;
  let onReady: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    cancel = dependencyDeadline(ms, () => reject(new DependencyTimeoutError('Redis', ms)));
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
    cancel?.();
    // A request that gave up stops waiting for the reconnect (a long outage would pile up listeners).
    if (onReady) redis.removeListener('ready', onReady);
  }
}

const digests = new Map<string, string>();

/**
 * Runs a Lua script by its SHA-1 (EVALSHA), sending its text only when this Redis has not seen it yet (NOSCRIPT:
 * after a restart or a failover): a script run on every request costs its arguments on the wire, not its text,
 * and Redis does not hash the text again each time. Keys are prefixed like every command's.
 */
export async function runScript(redis: Redis, script: string, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  let digest = digests.get(script);
  if (digest === undefined) {
    digest = createHash('sha1').update(script).digest('hex');
    digests.set(script, digest);
  }
  try {
    return await redis.evalsha(digest, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.eval(script, keys.length, ...keys, ...args);
  }
}
