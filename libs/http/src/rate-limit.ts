import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { V0_REQUESTS_PER_MINUTE } from '@workcell/domain';
import { type Redis, whenReady } from '@workcell/redis';
import type { ApiGeneration } from './operations.js';
import { ProtocolError } from './problems.js';

/**
 * Rate limits shared by every instance of an API through Redis: a sliding one-minute window per caller (and
 * route), kept as a sorted set of the admitted requests' times, so "N per minute" holds for every minute-long
 * span (a fixed window would admit up to 2N across its boundary). The check and the admission are one Lua
 * script on Redis' own clock, so instances with skewed clocks still share one exact budget.
 *
 * - v0 (contract 8): 100 requests per minute per API token and URL path.
 * - v1: per credential (or client address when there is none) and operation class (read = GET,
 *   write = everything else), configurable (V1_RATE_LIMIT_READ_PER_MINUTE / _WRITE_). Every response carries
 *   X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix time in ms).
 *
 * The caller is identified by a hash of the presented bearer value, never the value itself, and before
 * authentication, so guessing credentials spends the same budget as using them.
 */

const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
  readonly allowed: boolean;
  /** Seconds until a slot frees up (by Redis' clock, the one the window is kept on). */
  readonly retryAfterSeconds: number;
}

/**
 * Drops admissions older than the window, admits this request if fewer than `limit` remain, and answers the
 * count, whether it was admitted and when the oldest admission leaves the window (then a slot frees up).
 * Refused requests are not recorded: hammering while limited does not extend the wait.
 */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. '-' .. ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local first = now
if oldest[2] then first = tonumber(oldest[2]) end
return { allowed, count, first + window, now }
`;

export async function consume(redis: Redis, key: string, limit: number, timeoutMs: number, windowMs: number = WINDOW_MS): Promise<RateLimitDecision> {
  const result = await whenReady(redis, timeoutMs, () => redis.eval(SLIDING_WINDOW, 1, `rl:${key}`, windowMs, limit, randomUUID()) as Promise<unknown>);
  if (!Array.isArray(result) || result.length !== 4 || !result.every((n) => typeof n === 'number')) throw new Error('rate limit counter unavailable');
  const [allowed, count, resetAt, now] = result as [number, number, number, number];
  return { limit, remaining: Math.max(0, limit - count), resetAt, allowed: allowed === 1, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

function callerOf(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  const subject = typeof authorization === 'string' && authorization.length > 0 ? `t:${authorization}` : `ip:${request.ip}`;
  return createHash('sha256').update(subject).digest('base64url').slice(0, 32);
}

/** Installs the generation's limit as the first hook of every request. */
export function installRateLimit(
  fastify: { addHook(name: 'onRequest', hook: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): unknown },
  generation: ApiGeneration,
  config: AppConfig,
  redis: Redis,
  isInfrastructure: (url: string) => boolean,
): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && isInfrastructure(route)) return;
    const caller = callerOf(request);
    let decision: RateLimitDecision;
    try {
      if (generation === 'v0') {
        // "per API token and URL path": the path as requested, without the query string.
        const path = request.url.split('?')[0] ?? request.url;
        decision = await consume(redis, `v0:${caller}:${createHash('sha256').update(path).digest('base64url').slice(0, 22)}`, V0_REQUESTS_PER_MINUTE, config.dependencyTimeoutMs);
      } else {
        const kind = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
        decision = await consume(redis, `v1:${caller}:${kind}`, config.v1RateLimits[kind], config.dependencyTimeoutMs);
      }
    } catch {
      throw new ProtocolError(503, 'service_unavailable', 'a dependency is temporarily unavailable; retry shortly', [], { 'retry-after': '1' });
    }
    if (generation === 'v1') {
      reply.header('x-ratelimit-limit', String(decision.limit));
      reply.header('x-ratelimit-remaining', String(decision.remaining));
      reply.header('x-ratelimit-reset', String(decision.resetAt));
    }
    if (!decision.allowed) {
      throw new ProtocolError(429, 'rate_limit_exceeded', 'too many requests; retry after the window resets', [], { 'retry-after': String(decision.retryAfterSeconds) });
    }
  });
}
