import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AnyRouter } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import { type AppConfig, dependencyDeadline, DependencyTimeoutError, startDependencyCall } from '@workcell/config';
import { injectTraceHeaders } from '@workcell/telemetry';
import { INTERNAL_HEADER, INTERNAL_PATH, type InternalContext, internalToken, isInternalCaller } from './trpc.js';

/** Serves a router on the application's Fastify instance under /trpc. Call before listen(). */
export async function mountInternalApi(app: NestFastifyApplication, router: AnyRouter, config: AppConfig): Promise<void> {
  await app.register(fastifyTRPCPlugin, {
    prefix: INTERNAL_PATH,
    trpcOptions: {
      router,
      createContext: ({ req }: { req: { headers: Record<string, string | string[] | undefined> } }): InternalContext => ({
        internal: isInternalCaller(config, req.headers[INTERNAL_HEADER]),
      }),
      // A 503 (a dependency of this service unavailable: expose, trpc.ts) says when to retry, as the APIs' do.
      responseMeta: ({ errors }: { errors: readonly { code: string }[] }) => (errors.some((e) => e.code === 'SERVICE_UNAVAILABLE') ? { headers: { 'retry-after': '1' } } : {}),
    },
  });
}

/**
 * Each call ends within DEPENDENCY_TIMEOUT_MS, or what is left of the calling request's dependency budget if
 * less: a peer that stops answering without closing (a partition) would otherwise hold the request forever.
 */
async function boundedFetch(config: AppConfig, input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  const call = startDependencyCall(config.dependencyTimeoutMs);
  const deadline = new AbortController();
  const expire = () => deadline.abort(new DependencyTimeoutError('internal service', config.dependencyTimeoutMs));
  // Left running after the headers: it still bounds reading the body (an abort after that is a no-op).
  if (call.timeoutMs > 0) dependencyDeadline(call.timeoutMs, expire);
  else expire();
  try {
    return await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal });
  } finally {
    call.end();
  }
}

/** A typed client of another service's internal API. */
export function createInternalClient<R extends AnyRouter>(baseUrl: string, config: AppConfig): TRPCClient<R> {
  const token = internalToken(config);
  // No data transformer is configured on either side; the cast only tells the generic link so.
  const options = {
    url: `${baseUrl}${INTERNAL_PATH}`,
    // The calling request's trace continues in the other service (W3C traceparent).
    headers: () => injectTraceHeaders({ [INTERNAL_HEADER]: token }),
    fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) => boundedFetch(config, input, init),
  } as unknown as Parameters<typeof httpLink<R>>[0];
  return createTRPCClient<R>({ links: [httpLink<R>(options)] });
}
