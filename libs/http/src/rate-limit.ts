import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { V0_REQUESTS_PER_MINUTE } from '@workcell/domain';
import { findV0Operation, findV1OperationByRoute, type HttpMethod, type V0Method } from '@workcell/registry';
import { ADMIT_KNOWN, authorizationEpochKeys, type Redis, runScript, SLIDING_WINDOW, whenReady } from '@workcell/redis';
import type { ApiGeneration } from './operations.js';
import { dependencyUnavailable, ProtocolError } from './problems.js';

/**
 * Rate limits shared by every instance of an API through Redis: a sliding one-minute window per caller (and
 * route), kept as a sorted set of the admitted requests' times, so "N per minute" holds for every minute-long
 * span (a fixed window would admit up to 2N across its boundary). The check and the admission are one Lua
 * script on Redis' own clock, so instances with skewed clocks still share one exact budget.
 *
 * - v0 (contract 8): 100 requests per minute per API token and URL path.
 * - v1: per credential and operation class (read = GET/HEAD, write = everything else), configurable
 *   (V1_RATE_LIMIT_READ_PER_MINUTE / _WRITE_). Every response carries X-RateLimit-Limit,
 *   X-RateLimit-Remaining and X-RateLimit-Reset (Unix time in ms).
 *
 * Budgets are keyed by what a request *means*, never by how it is spelled: the caller is the credential the
 * token was identified as (its id, so `Bearer`, `bearer` and `BEARER` are one caller), and the v0 path is the route
 * the router matched with its decoded parameters, resource ids in their canonical spelling (`/teams`, `/team%73`
 * and `/%74eams` are one path, and so are `/tasks/ABC…` and `/tasks/abc…`: installCanonicalResourceIds).
 *
 * Two kinds of budget that never touch each other: an identified credential's own (admitKnown), and its client
 * address's for everything that is not one (no token, an unknown or refused token, a public or unknown route), on
 * the same route. A valid credential is limited by its own budget only, so callers refused at its address (behind
 * one NAT, say) cannot lock it out; a refused request spends only its address's budget, so guessing tokens is
 * bounded (429 once the address is out of budget, before the refusal's own 401).
 */

const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  /** The admission's member in the window (to give the slot back with `refund`). */
  readonly slot: string;
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
  readonly allowed: boolean;
  /** Seconds until a slot frees up (by Redis' clock, the one the window is kept on). */
  readonly retryAfterSeconds: number;
}

/** A credential's admission (RateLimitDecision) with the authorization state of its workspace, read in the same script. */
export interface KnownAdmission extends RateLimitDecision {
  /** The workspace's authorization epoch when the request was admitted. */
  readonly epoch: number;
  /** An authorization change of the workspace is in progress: verify from the database and cache nothing. */
  readonly changing: boolean;
  /** The credential's budget (its window's key), for refuseIdentified. */
  readonly budget: string;
}

const isNumbers = (value: unknown, length: number): value is number[] => Array.isArray(value) && value.length === length && value.every((n) => typeof n === 'number');

export async function consume(redis: Redis, key: string, limit: number, timeoutMs: number, windowMs: number = WINDOW_MS): Promise<RateLimitDecision> {
  const slot = randomUUID();
  const result = await whenReady(redis, timeoutMs, () => runScript(redis, SLIDING_WINDOW, [`rl:${key}`], [windowMs, limit, slot]));
  if (!isNumbers(result, 4)) throw new Error('rate limit counter unavailable');
  const [allowed, count, resetAt, now] = result as [number, number, number, number];
  return { slot, limit, remaining: Math.max(0, limit - count), resetAt, allowed: allowed === 1, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

/** Gives an admitted slot back (a request that turned out to be counted elsewhere). */
export async function refund(redis: Redis, key: string, slot: string, timeoutMs: number): Promise<void> {
  await whenReady(redis, timeoutMs, () => redis.zrem(`rl:${key}`, slot));
}

const hash = (value: string, length = 32) => createHash('sha256').update(value).digest('base64url').slice(0, length);

/** The route's template in registry form: `/v1/tasks/:id` → `/v1/tasks/{id}`. */
function registryTemplate(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/** `/a%62c` → `/abc` segment by segment (a malformed escape stays as it is); the query is not part of the path. */
export function decodedPath(url: string): string[] {
  const path = url.split('?')[0] ?? url;
  return path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

/**
 * The one rate limiter of an API app. The onRequest hook (installRateLimit) counts what needs no credential by
 * client address; the operation gate's VerifiedCredentials (libs/auth) calls `admitKnown` for an identified
 * credential and `refuse`/`refuseIdentified` for a request it refuses, for every authenticated operation.
 */
export class RateLimiter {
  constructor(
    private readonly generation: ApiGeneration,
    private readonly config: AppConfig,
    private readonly redis: Redis,
  ) {}

  /**
   * The route part of a budget's key. v0: the canonical decoded path (the matched route template with its
   * decoded parameters, resource ids already canonical, or the decoded path when nothing matched); v1: the
   * operation class.
   */
  private route(request: FastifyRequest): string {
    if (this.generation === 'v1') return request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    const template = request.routeOptions.url;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const path = template === undefined ? decodedPath(request.url) : template.split('/').map((part) => part.replace(/:(\w+)/g, (_, name: string) => String(params[name] ?? '')));
    return hash(JSON.stringify(path), 22);
  }

  private limit(request: FastifyRequest): number {
    if (this.generation === 'v0') return V0_REQUESTS_PER_MINUTE;
    return this.config.v1RateLimits[request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write'];
  }

  /** `workspaceId`: a credential's budget carries its workspace's hash tag, the one its epoch keys carry. */
  private key(request: FastifyRequest, subject: string, workspaceId?: string): string {
    return `${this.generation}:${workspaceId === undefined ? '' : `{${workspaceId}}:`}${subject}:${this.route(request)}`;
  }

  private addressKey(request: FastifyRequest): string {
    return this.key(request, `ip:${hash(request.ip)}`);
  }

  private async take(key: string, limit: number): Promise<RateLimitDecision> {
    try {
      return await consume(this.redis, key, limit, this.config.dependencyTimeoutMs);
    } catch {
      throw dependencyUnavailable();
    }
  }

  private apply(reply: FastifyReply, decision: RateLimitDecision): void {
    if (this.generation === 'v1') {
      reply.header('x-ratelimit-limit', String(decision.limit));
      reply.header('x-ratelimit-remaining', String(decision.remaining));
      reply.header('x-ratelimit-reset', String(decision.resetAt));
    }
    if (!decision.allowed) {
      throw new ProtocolError(429, 'rate_limit_exceeded', 'too many requests; retry after the window resets', [], { 'retry-after': String(decision.retryAfterSeconds) });
    }
  }

  /** Counts a request that presents no credential to check (public or unknown route) against its address. */
  async admitAddress(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    this.apply(reply, await this.take(this.addressKey(request), this.limit(request)));
  }

  /**
   * Refuses a request of an authenticated operation that no credential was identified for (no token, a malformed or
   * unknown one): it takes a slot of its address's budget and is answered `error`, or 429 once the address is out
   * of budget. (A token that is identified is served within its own budget instead, from any address: that a valid
   * credential is never locked out by others' refusals is worth more than hiding a right guess of a 256-bit secret.)
   */
  async refuse(request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<never> {
    this.apply(reply, await this.take(this.addressKey(request), this.limit(request)));
    throw error;
  }

  /**
   * Admits a request of an identified credential (`subject`: its kind and stable id) in one Redis round trip: the
   * credential's own budget is taken (429 when spent), whatever its address's budget holds, and the workspace's
   * authorization epoch is read.
   */
  async admitKnown(request: FastifyRequest, reply: FastifyReply, subject: string, workspaceId: string): Promise<KnownAdmission> {
    const slot = randomUUID();
    const keys = authorizationEpochKeys(workspaceId);
    const limit = this.limit(request);
    const budget = this.key(request, subject, workspaceId);
    let result: unknown;
    try {
      result = await whenReady(this.redis, this.config.dependencyTimeoutMs, () => runScript(this.redis, ADMIT_KNOWN, [`rl:${budget}`, keys.epoch, keys.pending], [WINDOW_MS, limit, slot]));
    } catch {
      throw dependencyUnavailable();
    }
    if (!isNumbers(result, 6)) throw dependencyUnavailable();
    const [allowed, count, resetAt, now, epoch, pending] = result as [number, number, number, number, number, number];
    const admission = {
      slot,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt,
      allowed: allowed === 1,
      retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      epoch,
      changing: pending === 1,
      budget,
    };
    this.apply(reply, admission);
    return admission;
  }

  /**
   * A credential admitted by admitKnown turned out to be refused (revoked, expired, locked …): its slot goes back
   * (a refusal never spends a credential's budget) and the request is refused like any refused token, within its
   * address's budget.
   */
  async refuseIdentified(request: FastifyRequest, reply: FastifyReply, admission: KnownAdmission, error: unknown): Promise<never> {
    await refund(this.redis, admission.budget, admission.slot, this.config.dependencyTimeoutMs).catch(() => undefined);
    return this.refuse(request, reply, error);
  }
}

/**
 * Installs the address-keyed part of the limit as an onRequest hook: requests on public operations and on
 * routes that are no operation (404, 405) are counted here; authenticated operations are counted by the
 * operation gate (admitKnown, or refuse), once it knows whether a credential is identified.
 */
export function installRateLimit(
  fastify: { addHook(name: 'onRequest', hook: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): unknown },
  limiter: RateLimiter,
  generation: ApiGeneration,
  isInfrastructure: (url: string) => boolean,
): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && isInfrastructure(route)) return;
    if (route !== undefined && isAuthenticatedOperation(generation, request.method, route)) return;
    await limiter.admitAddress(request, reply);
  });
}

function isAuthenticatedOperation(generation: ApiGeneration, method: string, route: string): boolean {
  const verb = method === 'HEAD' ? 'GET' : method;
  const template = registryTemplate(route);
  const operation = generation === 'v1' ? findV1OperationByRoute(verb as HttpMethod, template) : findV0Operation(verb as V0Method, template);
  return operation?.authenticated === true;
}
