import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import passport from 'passport';
import type { TRPCClient } from '@trpc/client';
import type { AppConfig } from '@workcell/config';
import {
  assertScopes,
  DomainError,
  type IdentifiedCredential,
  type IdentifiedTeamToken,
  identifyCredential,
  identifyTeamToken,
  type Operation,
  operationOf,
  type ProcedureContext,
  type V0AuthContext,
  type V1AuthContext,
  v0ActingContext,
  verifyIdentifiedCredential,
  verifyIdentifiedTeamToken,
} from '@workcell/domain';
import { type ApiGeneration, APP_CONFIG, dependencyUnavailable, INFRASTRUCTURE_METADATA, type OperationGate, PROCEDURE_CONTEXT, ProtocolError, RateLimiter, REDIS } from '@workcell/http';
import { type AuthRouter, createInternalClient, rethrowDomainError } from '@workcell/internal-api';
import { findV1Operation, v0Operations } from '@workcell/registry';
import { AuthorizationHeaderStrategy } from './bearer.strategy.js';
import { type CredentialKind, VerifiedCredentials } from './verified-credentials.js';

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
  throw dependencyUnavailable();
}

export const AUTHENTICATOR = Symbol('AUTHENTICATOR');

type GateRequest = Parameters<OperationGate['enter']>[1];
type GateReply = Parameters<OperationGate['enter']>[2];

/**
 * A Passport authenticator of this app's own (not the process-wide singleton, so two apps in one process never
 * share strategies). Its strategies read the bearer token from the Authorization header; what the token is worth
 * is decided by the gate's VerifiedCredentials, in this process.
 */
export function createAuthenticator(): passport.Authenticator {
  const authenticator = new passport.Passport();
  authenticator.use(new AuthorizationHeaderStrategy('v1-bearer', async (token) => token));
  authenticator.use(new AuthorizationHeaderStrategy('v0-bearer', async (token) => token));
  return authenticator;
}

/** Runs one Passport strategy for a request: the bearer token, or null when the header holds none. */
function bearerToken(authenticator: passport.Authenticator, strategy: 'v0-bearer' | 'v1-bearer', request: unknown): Promise<string | null> {
  return new Promise((resolve, reject) => {
    authenticator.authenticate(strategy, { session: false }, (error: unknown, token: unknown) => {
      if (error) return reject(error);
      resolve(typeof token === 'string' ? token : null);
    })(request, {}, reject);
  });
}

const V1_UNKNOWN = 'a valid bearer credential is required';
const V0_UNKNOWN = 'the API token is missing, malformed or invalid';

const v1Credentials: CredentialKind<IdentifiedCredential, V1AuthContext> = {
  identify: identifyCredential,
  subject: (identified) => `c:${identified.credentialId}`,
  async verify(ctx, identified) {
    const result = await verifyIdentifiedCredential(ctx, identified);
    return result.ok ? result : { ok: false, error: new DomainError(result.code, result.message) };
  },
  expiresAt: (context) => (context.credential.expiresAt === null ? null : Date.parse(context.credential.expiresAt)),
  unauthenticated: () => new DomainError('unauthenticated', V1_UNKNOWN),
};

const v0Credentials: CredentialKind<IdentifiedTeamToken, V0AuthContext> = {
  identify: identifyTeamToken,
  subject: (identified) => `t:${identified.teamTokenId}`,
  async verify(ctx, identified) {
    const result = await verifyIdentifiedTeamToken(ctx, identified);
    return result.ok ? result : { ok: false, error: new DomainError(result.code, result.code === 'workspace_locked' ? 'the team is locked' : V0_UNKNOWN) };
  },
  expiresAt: () => null,
  unauthenticated: () => new DomainError('unauthenticated', V0_UNKNOWN),
};

const v0ById = new Map(v0Operations.map((op) => [op.operationId, op]));

/** How many verified credentials an API instance keeps, and how long at most (VerifiedCredentials). */
const VERIFIED_CREDENTIALS = { maxEntries: 10_000, maxAgeMs: 60_000 };

/**
 * The gate of every API operation (OperationGate), from its registry entry: a public operation passes; for
 * every other one the bearer credential is authenticated in this process within the rate limit
 * (VerifiedCredentials: the address's budget while the credential is unknown, the credential's once it is known)
 * and, in v1, the registry's scope rules (all-of `scopes`, at least one of `anyOfScopes`) are checked against the
 * credential's effective scopes.
 */
@Injectable()
export class RegistryOperationGate implements OperationGate {
  private readonly v1: VerifiedCredentials<IdentifiedCredential, V1AuthContext>;
  private readonly v0: VerifiedCredentials<IdentifiedTeamToken, V0AuthContext>;

  constructor(
    @Inject('API_GENERATION') private readonly generation: ApiGeneration,
    @Inject(AUTHENTICATOR) private readonly authenticator: passport.Authenticator,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS) redis: ConstructorParameters<typeof RateLimiter>[2],
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
  ) {
    const limiter = new RateLimiter(generation, config, redis);
    this.v1 = new VerifiedCredentials(v1Credentials, ctx, limiter, VERIFIED_CREDENTIALS);
    this.v0 = new VerifiedCredentials(v0Credentials, ctx, limiter, VERIFIED_CREDENTIALS);
  }

  async enter(operationId: string, request: GateRequest & { operation?: Operation }, reply: GateReply): Promise<void> {
    if (this.generation === 'v0') {
      const operation = v0ById.get(operationId);
      if (!operation) throw new ProtocolError(500, 'internal_error', `unknown v0 operation ${operationId}`);
      if (!operation.authenticated) return;
      const user = await this.v0.authenticate(request, reply, await bearerToken(this.authenticator, 'v0-bearer', request.raw));
      // A v0 request acts through the v1 procedures as its team token's member (identity/v0-acting-context.ts).
      const { tokenMemberId, ...acting } = v0ActingContext(this.ctx, user);
      request.operation = operationOf(this.ctx, acting, request.id, { tokenMemberId });
      return;
    }
    const operation = findV1Operation(operationId);
    if (!operation) throw new ProtocolError(500, 'internal_error', `unknown v1 operation ${operationId}`);
    if (!operation.authenticated) return;
    const auth = await this.v1.authenticate(request, reply, await bearerToken(this.authenticator, 'v1-bearer', request.raw));
    assertScopes(auth.effectiveScopes, operation.scopes, operation.anyOfScopes);
    request.operation = operationOf(this.ctx, auth, request.id);
  }
}

/**
 * Verifies a held request's v1 credential again, straight against the database (no kept verification, no rate
 * admission), and checks the operation's scopes on the result. A long poll (`GET /v1/changes?wait=`) calls it before
 * each read after a wait, so a revocation, expiry, lock or narrowing during the wait is effective on that answer:
 * 401/403 like a new request, never events the credential may no longer read.
 */
@Injectable()
export class CredentialRecheck {
  constructor(
    @Inject(AUTHENTICATOR) private readonly authenticator: passport.Authenticator,
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
  ) {}

  async v1(operationId: string, request: GateRequest): Promise<V1AuthContext> {
    const token = await bearerToken(this.authenticator, 'v1-bearer', request.raw);
    const identified = token === null ? null : await v1Credentials.identify(this.ctx, token);
    if (!identified) throw v1Credentials.unauthenticated();
    const result = await v1Credentials.verify(this.ctx, identified);
    if (!result.ok) throw result.error;
    const operation = findV1Operation(operationId);
    if (operation) assertScopes(result.context.effectiveScopes, operation.scopes, operation.anyOfScopes);
    return result.context;
  }
}

/**
 * The API apps' global guard, for the routes Nest itself mounts: only infrastructure controllers (health) pass.
 * Operations never reach it: each is mounted with its compiled request path (libs/http operation-routes.ts), whose
 * first step is the operation's gate. So nothing Nest routes is reachable unless it declares itself infrastructure.
 */
@Injectable()
export class OperationGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.get<boolean | undefined>(INFRASTRUCTURE_METADATA, context.getClass())) return true;
    throw new ProtocolError(500, 'internal_error', 'a route outside the registry and the infrastructure');
  }
}
