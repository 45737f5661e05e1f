import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import {
  type Context,
  contextFromTraceparent,
  endSpan,
  httpRequestDuration,
  httpRequestErrors,
  metricsExposition,
  type Span,
  SpanKind,
  startSpan,
  tracingEnabled,
  withSpan,
} from '@workcell/telemetry';
import { type ApiGeneration, registryRoutes } from './operations.js';

export const METRICS_PATH = '/metrics';

/** The label of a request no route matched (unknown paths, 405s): one series, whatever the URL. */
export const UNMATCHED = 'unmatched';

interface Observed {
  operation: string;
  code: string | null;
  span: Span | undefined;
  context: Context | undefined;
}

const OBSERVED = Symbol('workcell.observed');
type ObservedRequest = FastifyRequest & { [OBSERVED]?: Observed };

/** Remembers the error document's code of a response, for the errors counter (sendProblem calls it). */
export function recordErrorCode(request: FastifyRequest, code: string): void {
  const observed = (request as ObservedRequest)[OBSERVED];
  if (observed) observed.code = code;
}

/** The trace ids of a request's server span, for its log line; undefined when it is not traced. */
export function requestTraceIds(request: FastifyRequest): { trace_id: string; span_id: string } | undefined {
  const span = (request as ObservedRequest)[OBSERVED]?.span;
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Request metrics and server spans for every route of a service, labelled by registry operation id (API apps) or
 * route template (the infrastructure routes, the internal API), never by the raw URL. Label children are cached
 * so a request's bookkeeping is a map lookup; with tracing off no span or context is created at all.
 */
export function installObservability(
  fastify: FastifyInstance,
  options: {
    service: string;
    config: AppConfig;
    api?: ApiGeneration;
    /** Answers a scrape without the METRICS_TOKEN bearer token: 401 in the service's error document. */
    refuse: (request: FastifyRequest, reply: FastifyReply) => void;
  },
): void {
  const { service, config } = options;
  const operations = new Map<string, string>();
  for (const route of options.api ? registryRoutes(options.api) : []) {
    operations.set(`${route.method} ${route.url}`, route.operationId);
    if (route.method === 'GET') operations.set(`HEAD ${route.url}`, route.operationId);
  }
  const operationOf = (request: FastifyRequest): string => {
    const url = request.routeOptions.url;
    if (url === undefined) return UNMATCHED;
    return operations.get(`${request.method} ${url}`) ?? url;
  };
  const durations = new Map<string, ReturnType<typeof httpRequestDuration.labels>>();
  const errors = new Map<string, ReturnType<typeof httpRequestErrors.labels>>();
  const tracing = tracingEnabled();

  fastify.addHook('onRequest', (request: ObservedRequest, _reply, done) => {
    const operation = operationOf(request);
    const observed: Observed = { operation, code: null, span: undefined, context: undefined };
    request[OBSERVED] = observed;
    if (!tracing) return done();
    // The server span continues the caller's trace (W3C traceparent) and is active for everything the request does.
    observed.span = startSpan(
      operation,
      SpanKind.SERVER,
      { 'http.request.method': request.method, 'http.route': request.routeOptions.url ?? UNMATCHED, 'workcell.service': service, 'workcell.request_id': request.id },
      contextFromTraceparent(request.headers.traceparent),
    );
    withSpan(observed.span, done);
  });
  if (tracing) {
    // Body parsing resumes on the socket's own async context; re-enter the request's before its handler runs.
    fastify.addHook('preHandler', (request: ObservedRequest, _reply, done) => withSpan(request[OBSERVED]?.span, done));
  }
  fastify.addHook('onResponse', (request: ObservedRequest, reply: FastifyReply, done) => {
    const observed = request[OBSERVED];
    const operation = observed?.operation ?? UNMATCHED;
    const status = reply.statusCode;
    const key = `${operation} ${request.method} ${status}`;
    let duration = durations.get(key);
    if (!duration) {
      duration = httpRequestDuration.labels(service, operation, request.method, statusClass(status));
      durations.set(key, duration);
    }
    duration.observe(reply.elapsedTime / 1000);
    if (status >= 400) {
      const code = observed?.code ?? `http_${status}`;
      const errorKey = `${operation} ${code}`;
      let counter = errors.get(errorKey);
      if (!counter) {
        counter = httpRequestErrors.labels(service, operation, code);
        errors.set(errorKey, counter);
      }
      counter.inc();
    }
    endSpan(observed?.span, status >= 500 ? new Error(`HTTP ${status}`) : undefined, { 'http.response.status_code': status });
    done();
  });

  if (!config.telemetry.metricsEnabled) return;
  const token = config.telemetry.metricsToken === null ? null : Buffer.from(`Bearer ${config.telemetry.metricsToken}`);
  fastify.route({
    method: 'GET',
    url: METRICS_PATH,
    handler: async (request, reply) => {
      if (token !== null) {
        const presented = Buffer.from(String(request.headers.authorization ?? ''));
        if (presented.length !== token.length || !timingSafeEqual(presented, token)) {
          options.refuse(request, reply);
          return reply;
        }
      }
      const { contentType, body } = await metricsExposition();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    },
  });
}
