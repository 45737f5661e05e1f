import type { AppConfig } from '@workcell/config';
import { createRedis, type Redis, runScript, whenReady } from '@workcell/redis';

/**
 * A job's share of its queue across every worker (the catalog's `share`): at most `limit` jobs of one key (one
 * receiver) run at once, so one key's backlog cannot take every slot of the queue from the others. The holders are
 * a sorted set of job ids scored by the end of their lease (a worker that dies mid-job frees its slot when the lease
 * ends); the jobs that found no room wait in a second sorted set, scored by when they first asked, and the holder
 * that leaves hands its slot to the one waiting longest (SHARE_RELEASE answers its id; the worker promotes it).
 * Both keys of a share carry one hash tag, so each script touches one Redis Cluster slot.
 */

/** KEYS: holders, waiting. ARGV: job id, lease ms, limit. 1: held (or already holding); 0: none free, now waiting. */
const SHARE_ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], lease)
  return 1
end
redis.call('ZADD', KEYS[2], 'NX', now, ARGV[1])
redis.call('PEXPIRE', KEYS[2], lease)
return 0
`;

/** KEYS: holders, waiting. ARGV: job id. Leaves the share; answers the job waiting longest (taken off the waiting set), if any. */
const SHARE_RELEASE = `
redis.call('ZREM', KEYS[1], ARGV[1])
local next = redis.call('ZPOPMIN', KEYS[2])
if next[1] then return next[1] end
return false
`;

/** Of a job definition: what its share is keyed by, and how many of one key may run at once. */
export interface JobShare<D> {
  readonly key: (data: D) => string;
  readonly limit: (config: AppConfig) => number;
  /** How long a slot is held at most: past any run of the job, so only a dead worker's slot is ever reclaimed by it. */
  readonly leaseMs: (config: AppConfig) => number;
  /**
   * How long a job that found no room waits at most before it asks again, should the hand-over never come (its
   * holder's worker died): about as long as one run takes at most.
   */
  readonly waitMs: (config: AppConfig) => number;
}

export class JobShares {
  private redis: Redis | undefined;

  constructor(private readonly config: AppConfig) {}

  private keys(key: string): [string, string] {
    // The key names a receiver; the braces are the hash tag, so both sets share a Redis Cluster slot.
    return [`share:{${key}}:holders`, `share:{${key}}:waiting`];
  }

  private client(): Redis {
    this.redis ??= createRedis(this.config, 'workcell-job-shares');
    return this.redis;
  }

  /** Takes a slot of `key` for the job; false when all are held (the job then waits for one: release hands it over). */
  async acquire<D>(share: JobShare<D>, data: D, jobId: string): Promise<boolean> {
    const redis = this.client();
    const answer = await whenReady(redis, this.config.dependencyTimeoutMs, () =>
      runScript(redis, SHARE_ACQUIRE, this.keys(share.key(data)), [jobId, share.leaseMs(this.config), share.limit(this.config)]),
    );
    return answer === 1;
  }

  /** Frees the job's slot; answers the id of the job that waited longest for one, to be started now. */
  async release<D>(share: JobShare<D>, data: D, jobId: string): Promise<string | null> {
    const redis = this.client();
    const next = await whenReady(redis, this.config.dependencyTimeoutMs, () => runScript(redis, SHARE_RELEASE, this.keys(share.key(data)), [jobId]));
    return typeof next === 'string' ? next : null;
  }

  async close(): Promise<void> {
    const redis = this.redis;
    this.redis = undefined;
    await redis?.quit().catch(() => redis.disconnect());
  }
}
