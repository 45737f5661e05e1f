import { createHmac, timingSafeEqual } from 'node:crypto';
import { initTRPC, TRPCError } from '@trpc/server';
import { type AppConfig, isDependencyUnavailable } from '@workcell/config';
import {
  authenticateCredential,
  authenticateTeamToken,
  authInput,
  createCredential,
  createServiceAccountCredential,
  deleteServiceAccount,
  DomainError,
  type DomainErrorCode,
  type FieldIssue,
  isDomainError,
  type Operation,
  operationOf,
  type Procedure,
  type ProcedureContext,
  revokeCredential,
  revokeOwnCredential,
  revokeServiceAccountCredential,
  rotateCredential,
  rotateServiceAccountCredential,
  runHandler,
} from '@workcell/domain';
import { DATA_EXCEPTION_DETAIL, isDataException, UNAVAILABLE_DETAIL } from '@workcell/http';
import { z } from 'zod';

/**
 * The internal channel between services: tRPC over HTTP on each service's port under /trpc. Only callers
 * holding the deployment's internal token (derived from CREDENTIAL_SECRET, so every service of a cell has it
 * and nothing outside does) may call it; the public APIs never expose it.
 */
export const INTERNAL_PATH = '/trpc';
export const INTERNAL_HEADER = 'x-workcell-internal';

export function internalToken(config: AppConfig): string {
  return createHmac('sha256', config.credentialSecret).update('workcell-internal-channel-v1').digest('base64url');
}

export function isInternalCaller(config: AppConfig, presented: string | string[] | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(internalToken(config));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface InternalContext {
  readonly internal: boolean;
}

/** A domain error as it crosses the internal channel; the caller rebuilds the same DomainError. */
export interface WireDomainError {
  readonly code: DomainErrorCode;
  readonly message: string;
  readonly issues: readonly FieldIssue[];
  readonly meta: Readonly<Record<string, unknown>>;
}

const t = initTRPC.context<InternalContext>().create({
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    data: {
      ...shape.data,
      // Stack traces stay on the server.
      stack: undefined,
      domain: isDomainError(error.cause) ? ({ code: error.cause.code, message: error.cause.message, issues: error.cause.issues, meta: error.cause.meta } satisfies WireDomainError) : null,
    },
  }),
});

/** Turns an internal call's failure back into the DomainError the other service threw, if it was one. */
export function rethrowDomainError(error: unknown): never {
  const domain = (error as { data?: { domain?: WireDomainError | null } }).data?.domain;
  if (domain) throw new DomainError(domain.code, domain.message, domain.issues, domain.meta);
  throw error;
}

export const router = t.router;

/** Every internal procedure requires the internal token. */
export const internalProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.internal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'internal callers only' });
  return next();
});

/** What each service says about itself; the API cells compare registry digests before they are ready. */
export interface ServiceInfo {
  readonly service: string;
  readonly region: string;
  readonly cell: string;
  readonly registryDigest: string;
}

export function createSystemRouter(info: ServiceInfo) {
  return router({ info: internalProcedure.query((): ServiceInfo => info) });
}

/** What a procedure's failure becomes on the wire: its domain error, an input error, unavailable, or the failure itself. */
function internalError(error: unknown): unknown {
  if (isDomainError(error)) return new TRPCError({ code: 'BAD_REQUEST', message: error.message, cause: error });
  // A value PostgreSQL refused is the caller's input error, the same verdict the API would give in-process:
  // it crosses as that domain error, never as a failure of this service (which the caller renders as 503).
  if (isDataException(error)) {
    return new TRPCError({ code: 'BAD_REQUEST', message: DATA_EXCEPTION_DETAIL, cause: new DomainError('validation_failed', DATA_EXCEPTION_DETAIL) });
  }
  // A dependency of this service that is unavailable is said so (503 with Retry-After, mount.ts), not as a 500.
  if (isDependencyUnavailable(error)) return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_DETAIL, cause: error });
  return error;
}

/**
 * A platform procedure served over tRPC: the same zod input and handler the API apps call in-process.
 * Always a mutation (POST), so inputs such as tokens never travel in a URL.
 */
export function expose<I extends z.ZodType, O>(procedure: Procedure<I, O, ProcedureContext>, context: ProcedureContext) {
  return internalProcedure.input(procedure.input).mutation(async ({ input }) => {
    try {
      return await runHandler(procedure, context, input as z.output<I>);
    } catch (error) {
      throw internalError(error);
    }
  });
}

/** The request id as it crosses the wire (the API app's request id, or null). */
const requestIdInput = z.string().max(128).nullable();

/** An operation as it crosses the internal channel: the caller the API app's gate authenticated, its request id. */
export interface WireOperation {
  readonly auth: Operation['auth'];
  readonly requestId: string | null;
}

/** The caller of `op` for an internal call (`mutate({ ...wireOperation(op), input })`). */
export function wireOperation(op: Operation): WireOperation {
  return { auth: op.auth, requestId: op.requestId };
}

/**
 * A caller's procedure served over tRPC: the operation (caller and request id) beside the procedure's own input,
 * and the handler run as that operation, exactly as in-process.
 */
export function exposeOperation<I extends z.ZodType, O>(procedure: Procedure<I, O>, context: ProcedureContext) {
  return internalProcedure.input(z.object({ auth: authInput, requestId: requestIdInput, input: procedure.input })).mutation(async ({ input }) => {
    try {
      const wire = input as WireOperation & { input: z.output<I> };
      return await runHandler(procedure, operationOf(context, wire.auth, wire.requestId), wire.input);
    } catch (error) {
      throw internalError(error);
    }
  });
}

/** The auth service's internal API: it owns credentials, so the API cells authenticate through it. */
export function createAuthRouter(info: ServiceInfo, context: ProcedureContext) {
  return router({
    system: createSystemRouter(info),
    identity: router({
      authenticateCredential: expose(authenticateCredential, context),
      authenticateTeamToken: expose(authenticateTeamToken, context),
    }),
    // Everything that mints, rotates or revokes a secret runs here, in the service that owns credentials.
    credentials: router({
      revokeOwn: exposeOperation(revokeOwnCredential, context),
      create: exposeOperation(createCredential, context),
      rotate: exposeOperation(rotateCredential, context),
      revoke: exposeOperation(revokeCredential, context),
    }),
    serviceAccounts: router({
      /** Revokes every credential of the account. */
      delete: exposeOperation(deleteServiceAccount, context),
      createCredential: exposeOperation(createServiceAccountCredential, context),
      rotateCredential: exposeOperation(rotateServiceAccountCredential, context),
      revokeCredential: exposeOperation(revokeServiceAccountCredential, context),
    }),
  });
}
export type AuthRouter = ReturnType<typeof createAuthRouter>;

/** The worker's internal API. */
export function createWorkerRouter(info: ServiceInfo) {
  return router({ system: createSystemRouter(info) });
}
export type WorkerRouter = ReturnType<typeof createWorkerRouter>;
