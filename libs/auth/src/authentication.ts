import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import passport from 'passport';
import type { TRPCClient } from '@trpc/client';
import type { AppConfig } from '@workcell/config';
import { DomainError, type V0AuthContext, type V1AuthContext } from '@workcell/domain';
import { type ApiGeneration, APP_CONFIG, INFRASTRUCTURE_METADATA, OPERATION_GATE, OPERATION_METADATA, type OperationGate, ProtocolError, RateLimiter, REDIS } from '@workcell/http';
import { type AuthRouter, createInternalClient, rethrowDomainError } from '@workcell/internal-api';
import { findV1Operation, v0Operations } from '@workcell/registry';
import { AuthorizationHeaderStrategy } from './bearer.strategy.js';

export const AUTH_CLIENT = Symbol('AUTH_CLIENT');
export type AuthClient = Pick<TRPCClient<AuthRouter>, 'identity' | 'credentials' | 'serviceAccounts' | 'system'>;

/**
 * The auth service's internal API as a plain object: a tRPC client is a Proxy that answers every property
 * (even `then` and Nest's lifecycle hook names), so it must not be handed to the DI container itself.
 */
export function createAuthClient(config: AppConfig): AuthClient {
  const client = createInternalClient<AuthRouter>(config.internalUrls.auth, config);
  return { identity: client.identity, credentials: client.credentials, serviceAccounts: client.serviceAccounts, system: client.system };
}

/**
 * An internal call's failure: a domain error of the auth service stays that domain error; anything else
 * means the auth service could not be asked, a dependency failure (503), never a verdict on the credential.
 */
export function internalFailure(error: unknown): never {
  try {
    rethrowDomainError(error);
  } catch (rethrown) {
    if (rethrown instanceof DomainError) throw rethrown;
  }
  throw new ProtocolError(503, 'service_unavailable', 'a dependency is temporarily unavailable; retry shortly', [], { 'retry-after': '1' });
}

export const AUTHENTICATOR = Symbol('AUTHENTICATOR');

type GateRequest = Parameters<OperationGate['enter']>[1];
type GateReply = Parameters<OperationGate['enter']>[2];

/**
 * A Passport authenticator of this app's own (not the process-wide singleton, so two apps in one process
 * never share strategies) whose strategies ask the auth service, which owns credentials, over the
 * internal channel.
 */
export function createAuthenticator(client: AuthClient): passport.Authenticator {
  const authenticator = new passport.Passport();
  authenticator.use(
    new AuthorizationHeaderStrategy('v1-bearer', async (token) => {
      const result = await client.identity.authenticateCredential.mutate({ token }).catch(internalFailure);
      if (!result.ok) throw new DomainError(result.code, result.message);
      return result.context;
    }),
  );
  authenticator.use(
    new AuthorizationHeaderStrategy('v0-bearer', async (token) => {
      const result = await client.identity.authenticateTeamToken.mutate({ token }).catch(internalFailure);
      if (!result.ok) throw new DomainError(result.code, result.code === 'workspace_locked' ? 'the team is locked' : 'the API token is missing, malformed or invalid');
      return result.context;
    }),
  );
  return authenticator;
}

/** Runs one Passport strategy for a request: resolves the authenticated context or throws a DomainError. */
function authenticate(authenticator: passport.Authenticator, strategy: 'v0-bearer' | 'v1-bearer', request: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    authenticator.authenticate(strategy, { session: false }, (error: unknown, user: unknown) => {
      if (error) return reject(error);
      if (!user) return reject(new DomainError('unauthenticated', strategy === 'v1-bearer' ? 'a valid bearer credential is required' : 'the API token is missing, malformed or invalid'));
      resolve(user);
    })(request, {}, reject);
  });
}

const v0ById = new Map(v0Operations.map((op) => [op.operationId, op]));

/**
 * The gate of every API operation (OperationGate), from its registry entry: a public operation passes; for
 * every other one the bearer credential is authenticated within the rate limit (RateLimiter.admit: the
 * address's budget while it is unknown, the credential's once it is known) and, in v1, the registry's scope
 * rules (all-of `scopes`, at least one of `anyOfScopes`) are checked against the credential's effective scopes.
 */
@Injectable()
export class RegistryOperationGate implements OperationGate {
  private readonly limiter: RateLimiter;

  constructor(
    @Inject('API_GENERATION') private readonly generation: ApiGeneration,
    @Inject(AUTHENTICATOR) private readonly authenticator: passport.Authenticator,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS) redis: ConstructorParameters<typeof RateLimiter>[2],
  ) {
    this.limiter = new RateLimiter(generation, config, redis);
  }

  async enter(operationId: string, request: GateRequest & { user?: unknown }, reply: GateReply): Promise<void> {
    if (this.generation === 'v0') {
      const operation = v0ById.get(operationId);
      if (!operation) throw new ProtocolError(500, 'internal_error', `unknown v0 operation ${operationId}`);
      if (!operation.authenticated) return;
      request.user = await this.limiter.admit(request, reply, () => authenticate(this.authenticator, 'v0-bearer', request.raw) as Promise<V0AuthContext>, (auth) => `t:${auth.teamTokenId}`);
      return;
    }
    const operation = findV1Operation(operationId);
    if (!operation) throw new ProtocolError(500, 'internal_error', `unknown v1 operation ${operationId}`);
    if (!operation.authenticated) return;
    const auth = await this.limiter.admit(request, reply, () => authenticate(this.authenticator, 'v1-bearer', request.raw) as Promise<V1AuthContext>, (auth) => `c:${auth.credential.id}`);
    request.user = auth;
    assertScopes(auth.effectiveScopes, operation.scopes, operation.anyOfScopes);
  }
}

/**
 * The API apps' global guard: runs the operation gate of the operation a handler declares. A handler without
 * an operation is refused: nothing is reachable unless the registry declares it.
 */
@Injectable()
export class OperationGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(OPERATION_GATE) private readonly gate: OperationGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.get<boolean | undefined>(INFRASTRUCTURE_METADATA, context.getClass())) return true;
    const operationId = this.reflector.get<string | undefined>(OPERATION_METADATA, context.getHandler());
    if (!operationId) throw new ProtocolError(500, 'internal_error', 'handler without a registry operation');
    const http = context.switchToHttp();
    await this.gate.enter(operationId, http.getRequest<GateRequest>(), http.getResponse<GateReply>());
    return true;
  }
}

/** Throws insufficient_scope naming what is missing; scopes are checked on every request, never cached. */
export function assertScopes(held: readonly string[], allOf: readonly string[], anyOf: readonly string[]): void {
  const have = new Set(held);
  const missing = allOf.filter((s) => !have.has(s));
  const anyOfMissing = anyOf.length > 0 && !anyOf.some((s) => have.has(s));
  if (missing.length === 0 && !anyOfMissing) return;
  const parts = [...(missing.length > 0 ? [missing.join(', ')] : []), ...(anyOfMissing ? [`one of ${anyOf.join(' | ')}`] : [])];
  throw new DomainError('insufficient_scope', `the credential lacks the required scopes: ${parts.join('; ')}`, [], { missingScopes: missing, anyOfScopes: anyOfMissing ? anyOf : [] });
}
