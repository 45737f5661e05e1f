import { createHmac, timingSafeEqual } from 'node:crypto';
import { initTRPC, TRPCError } from '@trpc/server';
import type { AppConfig } from '@workcell/config';
import { authenticateCredential, authenticateTeamToken, type Procedure, type ProcedureContext } from '@workcell/domain';
import type { z } from 'zod';

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

const t = initTRPC.context<InternalContext>().create();

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

/**
 * A domain procedure served over tRPC: the same zod input and handler the API apps call in-process.
 * Always a mutation (POST), so inputs such as tokens never travel in a URL.
 */
export function expose<I extends z.ZodType, O>(procedure: Procedure<I, O>, context: ProcedureContext) {
  return internalProcedure.input(procedure.input).mutation(({ input }) => procedure.handler(context, input as z.output<I>));
}

/** The auth service's internal API: it owns credentials, so the API cells authenticate through it. */
export function createAuthRouter(info: ServiceInfo, context: ProcedureContext) {
  return router({
    system: createSystemRouter(info),
    identity: router({
      authenticateCredential: expose(authenticateCredential, context),
      authenticateTeamToken: expose(authenticateTeamToken, context),
    }),
  });
}
export type AuthRouter = ReturnType<typeof createAuthRouter>;

/** The worker's internal API. */
export function createWorkerRouter(info: ServiceInfo) {
  return router({ system: createSystemRouter(info) });
}
export type WorkerRouter = ReturnType<typeof createWorkerRouter>;
