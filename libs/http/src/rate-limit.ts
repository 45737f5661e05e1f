import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { V0_REQUESTS_PER_MINUTE } from '@workcell/domain';
import { type Redis, whenReady } from '@workcell/redis';
import type { ApiGeneration } from './operations.js';
import { ProtocolError } from './problems.js';

/**
 * Rate limits shared by every instance of an API through Redis: fixed one-minute windows aligned to the
 * clock, counted with INCR on a key per caller, route and window, so two instances see one budget.
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
}

export async function consume(redis: Redis, key: string, limit: number, now: number, timeoutMs: number): Promise<RateLimitDecision> {
  const window = Math.floor(now / WINDOW_MS);
  const resetAt = (window + 1) * WINDOW_MS;
  const results = await whenReady(redis, timeoutMs, () =>
    redis
      .multi()
      .incr(`rl:${key}:${window}`)
      .pexpire(`rl:${key}:${window}`, WINDOW_MS * 2)
      .exec(),
  );
  const count = Number(results?.[0]?.[1]);
  if (!results || results.some(([error]) => error) || !Number.isFinite(count)) throw new Error('rate limit counter unavailable');
  return { limit, remaining: Math.max(0, limit - count), resetAt, allowed: count <= limit };
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
        decision = await consume(redis, `v0:${caller}:${createHash('sha256').update(path).digest('base64url').slice(0, 22)}`, V0_REQUESTS_PER_MINUTE, Date.now(), config.dependencyTimeoutMs);
      } else {
        const kind = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
        decision = await consume(redis, `v1:${caller}:${kind}`, config.v1RateLimits[kind], Date.now(), config.dependencyTimeoutMs);
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
      const retryAfter = String(Math.max(1, Math.ceil((decision.resetAt - Date.now()) / 1000)));
      throw new ProtocolError(429, 'rate_limit_exceeded', 'too many requests; retry after the window resets', [], { 'retry-after': retryAfter });
    }
  });
}
