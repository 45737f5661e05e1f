import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { V0_REQUESTS_PER_MINUTE } from '@workcell/domain';
import { findV0Operation, findV1OperationByRoute, type HttpMethod, type V0Method } from '@workcell/registry';
import { authorizationEpochKeys, type Redis, runScript, whenReady } from '@workcell/redis';
import type { ApiGeneration } from './operations.js';
import { ProtocolError } from './problems.js';

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
 * auth service authenticated (its id, so `Bearer`, `bearer` and `BEARER` are one caller), and the v0 path is
 * the route the router matched with its decoded parameters (`/teams`, `/team%73` and `/%74eams` are one path).
 * A request without a usable credential (no token, a refused token, a public or unknown route) is counted
 * against its client address instead, on the same route, so guessing tokens is bounded like using them: a
 * request whose credential is not known yet first takes a slot of its address's budget, gives it back once its
 * credential is identified, and the slot is counted again when the credential is refused; an address out of
 * budget gets 429 before its token is even looked at, a known credential's included (admitKnown).
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

/**
 * The sliding window, as Lua both scripts share. `admit` drops admissions older than the window, admits this request
 * if fewer than `limit` remain, and answers whether it was admitted, the count and when the oldest admission leaves
 * the window (then a slot frees up). Refused requests are not recorded: hammering while limited does not extend the
 * wait. `oldestEnd` is that last time for a window it only reads.
 */
const WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local function oldestEnd(key)
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if oldest[2] then return tonumber(oldest[2]) + window end
  return now + window
end
local function admit(key, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  if count < limit then
    redis.call('ZADD', key, now, member)
    count = count + 1
    allowed = 1
  end
  redis.call('PEXPIRE', key, window)
  return allowed, count, oldestEnd(key)
end
`;

/** One admission in KEYS[1] (ARGV: window, limit, the admission's member). */
const SLIDING_WINDOW = `${WINDOW}
local allowed, count, resetAt = admit(KEYS[1], ARGV[3])
return { allowed, count, resetAt, now }
`;

/**
 * The address half of a known credential's admission (KEYS[1]: the address's window; ARGV[4]: the slot it took while
 * the credential was unknown, or ''): gives that slot back and counts the address's window, checked, not taken (the
 * address's budget bounds unverified tokens only). Sets `addressCount`.
 */
const CHECK_ADDRESS = `
if ARGV[4] ~= '' then redis.call('ZREM', KEYS[1], ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local addressCount = redis.call('ZCARD', KEYS[1])
`;

/**
 * The credential half (KEYS[n], KEYS[n+1], KEYS[n+2]: the credential's window and the workspace's epoch keys, which
 * share the workspace's hash tag): admits the request in the credential's window and answers the decision with the
 * workspace's authorization epoch and whether a change is pending (libs/redis authorization-epochs.ts).
 */
const admitCredential = (n: number) => `
local epoch = tonumber(redis.call('GET', KEYS[${n + 1}]) or '0')
local pending = redis.call('EXISTS', KEYS[${n + 2}])
local allowed, count, resetAt = admit(KEYS[${n}], ARGV[3])
return { allowed, count, resetAt, now, epoch, pending }
`;

/**
 * The one Redis round trip of a request whose credential the instance has verified before (KEYS: the address's
 * window, then the credential half's keys; ARGV: window, limit, the admission's member, the address's slot or ''):
 * refuses when the address is out of budget, otherwise admits the credential (both halves above).
 */
const ADMIT_KNOWN = `${WINDOW}${CHECK_ADDRESS}
if addressCount >= limit then return { 0, addressCount, oldestEnd(KEYS[1]), now, 0, 0 } end
${admitCredential(2)}`;

/**
 * Redis Cluster: the address's window and the workspace's keys hash to different slots, which one script may not
 * touch, so the halves run as two scripts, the address first (its refusal answers without admitting). Between
 * them the address's count may move; its budget is only checked here, so that changes no one's admission.
 */
const ADMIT_KNOWN_ADDRESS = `${WINDOW}${CHECK_ADDRESS}
if addressCount >= limit then return { 0, addressCount, oldestEnd(KEYS[1]), now } end
return { 1, addressCount, 0, now }
`;
const ADMIT_KNOWN_CREDENTIAL = `${WINDOW}${admitCredential(1)}`;

/** A credential's admission (RateLimitDecision) with the authorization state of its workspace, read in the same script. */
export interface KnownAdmission extends RateLimitDecision {
  /** The workspace's authorization epoch when the request was admitted. */
  readonly epoch: number;
  /** An authorization change of the workspace is in progress: verify from the database and cache nothing. */
  readonly changing: boolean;
  /** The credential's budget (its window's key), for countRefused. */
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
 * client address; the operation gate's VerifiedCredentials (libs/auth) calls `admitUnknown`/`admitKnown` around
 * authentication for every authenticated operation.
 */
export class RateLimiter {
  constructor(
    private readonly generation: ApiGeneration,
    private readonly config: AppConfig,
    private readonly redis: Redis,
  ) {}

  /**
   * The route part of a budget's key. v0: the canonical decoded path (the matched route template with its
   * decoded parameters, or the decoded path when nothing matched); v1: the operation class.
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
      throw unavailable();
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
   * Takes a slot of the address's budget for a request whose credential is not known yet (none, malformed, or not
   * verified by this instance before): refused at once when the address is out of budget, before any token is
   * looked at. `decide` settles what the slot becomes (admitKnown gives it back once the credential is identified).
   */
  async admitUnknown(request: FastifyRequest, reply: FastifyReply): Promise<{ readonly slot: string; readonly decision: RateLimitDecision }> {
    const decision = await this.take(this.addressKey(request), this.limit(request));
    if (!decision.allowed) this.apply(reply, decision);
    return { slot: decision.slot, decision };
  }

  /** Gives back a slot admitUnknown took, for a request that ended without a verdict on its token. */
  async giveBack(request: FastifyRequest, slot: string): Promise<void> {
    await refund(this.redis, this.addressKey(request), slot, this.config.dependencyTimeoutMs).catch(() => undefined);
  }

  /** Answers a refused request with the headers of the admission it was counted in (v1), then throws `error`. */
  refuse(reply: FastifyReply, decision: RateLimitDecision, error: unknown): never {
    this.apply(reply, decision);
    throw error;
  }

  /**
   * Admits a request of an identified credential (`subject`: its kind and stable id) in one Redis round trip (two in
   * a Redis Cluster: ADMIT_KNOWN_ADDRESS): the
   * address must still have budget, the credential's budget is taken (429 when spent), a slot the address took while
   * the credential was unknown (`addressSlot`) is given back, and the workspace's authorization epoch is read.
   */
  async admitKnown(request: FastifyRequest, reply: FastifyReply, subject: string, workspaceId: string, addressSlot?: string): Promise<KnownAdmission> {
    const slot = randomUUID();
    const keys = authorizationEpochKeys(workspaceId);
    const limit = this.limit(request);
    const budget = this.key(request, subject, workspaceId);
    const address = `rl:${this.addressKey(request)}`;
    const args = [WINDOW_MS, limit, slot, addressSlot ?? ''];
    let result: unknown;
    try {
      result = await whenReady(this.redis, this.config.dependencyTimeoutMs, async () => {
        if (!this.redis.isCluster) return runScript(this.redis, ADMIT_KNOWN, [address, `rl:${budget}`, keys.epoch, keys.pending], args);
        const checked = await runScript(this.redis, ADMIT_KNOWN_ADDRESS, [address], args);
        if (!isNumbers(checked, 4)) return checked;
        if (checked[0] === 0) return [...checked, 0, 0];
        return runScript(this.redis, ADMIT_KNOWN_CREDENTIAL, [`rl:${budget}`, keys.epoch, keys.pending], args);
      });
    } catch {
      throw unavailable();
    }
    if (!isNumbers(result, 6)) throw unavailable();
    const [allowed, count, resetAt, now, epoch, pending] = result as [number, number, number, number, number, number];
    const admission = { slot, limit, remaining: Math.max(0, limit - count), resetAt, allowed: allowed === 1, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)), epoch, changing: pending === 1, budget };
    this.apply(reply, admission);
    return admission;
  }

  /**
   * A credential admitted by admitKnown turned out to be refused (revoked, expired, locked …): its slot goes back
   * and the request is counted against the address instead, like any refused token, so guessing stays bounded.
   */
  async countRefused(request: FastifyRequest, reply: FastifyReply, admission: KnownAdmission): Promise<void> {
    await refund(this.redis, admission.budget, admission.slot, this.config.dependencyTimeoutMs).catch(() => undefined);
    const decision = await this.take(this.addressKey(request), this.limit(request)).catch(() => admission);
    if (this.generation === 'v1') {
      reply.header('x-ratelimit-limit', String(decision.limit));
      reply.header('x-ratelimit-remaining', String(decision.remaining));
      reply.header('x-ratelimit-reset', String(decision.resetAt));
    }
  }
}

function unavailable(): ProtocolError {
  return new ProtocolError(503, 'service_unavailable', 'a dependency is temporarily unavailable; retry shortly', [], { 'retry-after': '1' });
}

/**
 * Installs the address-keyed part of the limit as an onRequest hook: requests on public operations and on
 * routes that are no operation (404, 405) are counted here; authenticated operations are counted by the
 * operation gate (admitUnknown/admitKnown), once their credential is known.
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
