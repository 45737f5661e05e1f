import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppConfig, loadConfigOrExit } from '@workcell/config';
import { createLogger, type Logger, NestPinoLogger } from './logger.js';
import { installRepresentationEtags } from './preconditions.js';
import { DEFAULT_BODY_LIMIT, v0Operations } from '@workcell/registry';
import { type ApiGeneration, compareWithRegistry, type MountedRoute, registryBodyLimits, registryRoutes, type RouteCoverage } from './operations.js';
import { mountOperation, type OperationHandler, operationHandlers } from './operation-routes.js';
import { ProtocolError, toProblem } from './problems.js';
import { clientErrorHandler, type ErrorRenderer, ProblemFilter, sendProblem, v0Errors, v1Errors } from './protocols.js';
import { installMethodNotAllowed } from './methods.js';
import { OPERATION_GATE, type OperationGate } from './operation-gate.js';
import { installRateLimit, RateLimiter } from './rate-limit.js';
import { installCanonicalResourceIds } from './resource-ids.js';
import { installApiReference, referenceDocument, REFERENCE_PAGES } from './reference.js';
import { applyServerLimits } from './server-limits.js';
import { APP_CONFIG, DATABASE, REDIS, SERVICE_NAME } from './tokens.js';
import { installObservability, METRICS_PATH, requestTraceIds } from './observability.js';
import { startTracing, stopTracing } from '@workcell/telemetry';
import type { Database } from '@workcell/db';
import { FILE_TRANSFER_PREFIX } from '@workcell/domain';
import { jsonStructureProblem } from './validation.js';
import type { Redis } from '@workcell/redis';

/** Incoming X-Request-Id values are kept only when they are short and harmless; otherwise we mint one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

export interface HttpApplicationOptions {
  readonly logger: Logger;
  /** Largest accepted request body in bytes (an API operation may declare its own, registry `bodyLimit`). */
  readonly bodyLimit?: number;
  /** For the API apps: the registry generation whose operations this app serves, and its error shape. */
  readonly api?: ApiGeneration;
  /** Rewrites the request path before routing (api-v0: strips a base address's path prefix). */
  readonly rewriteUrl?: (url: string) => string;
}

/**
 * Routes every service has that are not API operations (the API apps add their reference pages, api-v1 the local
 * file storage's capability URLs, docs/files.md).
 */
export const INFRASTRUCTURE_ROUTES = ['/healthz', '/readyz', METRICS_PATH, '/trpc', '/openapi.json', ...Object.values(REFERENCE_PAGES), FILE_TRANSFER_PREFIX];

const coverageByApp = new WeakMap<object, RouteCoverage>();
const routesByApp = new WeakMap<object, readonly MountedRoute[]>();

/** Every route the app has mounted, from its creation on (a test enumerates a service's routes with it). */
export function mountedRoutes(app: NestFastifyApplication): readonly MountedRoute[] {
  const routes = routesByApp.get(app);
  if (!routes) throw new Error('mountedRoutes(): not an application of createHttpApplication');
  return routes;
}

/** Which registry operations an API app implements (the rest answer 501). */
export function routeCoverage(app: NestFastifyApplication): RouteCoverage {
  const coverage = coverageByApp.get(app);
  if (!coverage) throw new Error('routeCoverage(): not an initialised API application');
  return coverage;
}

const RENDERERS: Record<ApiGeneration, ErrorRenderer> = { v0: v0Errors, v1: v1Errors };

/** ignoreBOM: a leading byte order mark is kept in the text (and refused), never silently dropped. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The only request bodies any service reads are JSON (`application/json`, parameters such as charset allowed):
 * every other media type, a form-encoded body included, answers 415, and so does any `Content-Encoding` but
 * `identity` (compressed bodies are not decoded) and any charset but UTF-8. A JSON body must be valid UTF-8
 * (decoded fatally: a stray byte is a 400, never a silent U+FFFD) and must not start with a byte order mark
 * (RFC 8259 8.1: a JSON text carries none; a 400 like any other body bytes that are not JSON text, while 415 is
 * for what the headers declare) and is parsed by Fastify's secure parser,
 * which refuses `__proto__` and `constructor.prototype` keys; repeated keys and deep nesting are refused too
 * (jsonStructureProblem).
 */
function installBodyParsers(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity') {
      done(new ProtocolError(415, 'unsupported_media_type', 'request bodies are not decoded: send them without Content-Encoding (or identity)'), undefined);
      return;
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(String(request.headers['content-type'] ?? ''))?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new ProtocolError(415, 'unsupported_media_type', 'JSON request bodies are UTF-8: send charset=utf-8 or none'), undefined);
      return;
    }
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      done(new ProtocolError(400, 'invalid_json', 'the request body is not valid UTF-8'), undefined);
      return;
    }
    if (text.startsWith('\uFEFF')) {
      done(new ProtocolError(400, 'invalid_json', 'the request body starts with a byte order mark (U+FEFF); JSON text must not (RFC 8259 8.1)'), undefined);
      return;
    }
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      const problem = jsonStructureProblem(text);
      if (problem) return done(new ProtocolError(400, 'invalid_json', problem), undefined);
      done(null, value);
    });
  });
  fastify.addContentTypeParser('*', (_request, _payload, done) => {
    done(new ProtocolError(415, 'unsupported_media_type', 'request bodies must be application/json'), undefined);
  });
}

/**
 * Creates a NestJS application on Fastify with the platform's request plumbing: a request id on every
 * request and response, and exactly one structured log line per request (method, route template, status,
 * duration, request id; never headers or the raw URL, which may carry secrets).
 */
export async function createHttpApplication(rootModule: Type<unknown> | DynamicModule, options: HttpApplicationOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    genReqId: (req: IncomingMessage) => requestIdFor(req.headers['x-request-id']),
    // Fastify answers idle keep-alive sockets on close, so shutdown waits only for requests in flight.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Long path values flow through routing like any other (authentication first, then the registry's own path
    // validation in the error document); Fastify's default (100) answered a bare 414 before either. The URL is
    // still bounded by Node's header size limit.
    routerOptions: { maxParamLength: 16 * 1024 },
    // What the router itself refuses (a path that does not percent-decode; a path value past maxParamLength) is
    // answered in the generation's error shape with the request id, never with Fastify's body, which echoes the
    // path (and so a calendar token).
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const detail = tooLong ? 'a path value is too long' : 'the URL path is not valid percent-encoded UTF-8';
      const problem = new ProtocolError(tooLong ? 414 : 400, tooLong ? 'uri_too_long' : 'validation_failed', detail, [{ pointer: '', parameter: 'path', message: detail }]);
      reply.header('x-request-id', request.id);
      sendProblem(reply, request, toProblem(problem), RENDERERS[options.api ?? 'v1']);
    },
    clientErrorHandler: clientErrorHandler(RENDERERS[options.api ?? 'v1']),
    // Node would answer an HTTP/1.1 request without Host itself, with an empty 400; the onRequest hook below
    // refuses it in the generation's error shape with the request id instead.
    http: { requireHostHeader: false },
    ...(options.rewriteUrl ? { rewriteUrl: (req: IncomingMessage) => options.rewriteUrl!(req.url ?? '/') } : {}),
  });
  const fastify = adapter.getInstance();
  installBodyParsers(fastify);
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // RFC 9112 3.2: an HTTP/1.1 request without Host is a 400 (HTTP/1.0 has no such rule).
    if (request.headers.host === undefined && request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1) {
      reply.header('connection', 'close');
      sendProblem(reply, request, toProblem(new ProtocolError(400, 'invalid_request', 'the request has no Host header, which HTTP/1.1 requires')), RENDERERS[options.api ?? 'v1']);
      return reply;
    }
  });
  // A request that finishes during shutdown closes its connection, so a keep-alive client cannot hold it open.
  fastify.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async (request: FastifyRequest, reply) => {
    options.logger.info(
      {
        requestId: request.id,
        ...requestTraceIds(request),
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });
  const mounted: MountedRoute[] = [];
  const bodyLimits = options.api ? registryBodyLimits(options.api) : new Map<string, number>();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      mounted.push({ method, url: route.url });
      const bodyLimit = bodyLimits.get(`${method} ${route.url}`);
      if (bodyLimit !== undefined) route.bodyLimit = bodyLimit;
    }
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
    // Nest's own parsers (JSON, and a form-urlencoded one that let a form body create a tag) are replaced by
    // installBodyParsers().
    bodyParser: false,
  });
  routesByApp.set(app, mounted);
  const config = app.get<AppConfig>(APP_CONFIG);
  applyServerLimits(fastify, config);
  // Before Nest mounts its routes (app.init): every route, /metrics itself included, is measured and traced.
  const service = app.get<string>(SERVICE_NAME);
  if (config.telemetry.otlpEndpoint !== null) {
    await startTracing({
      endpoint: config.telemetry.otlpEndpoint,
      serviceName: config.telemetry.serviceName ?? service,
      sampleRatio: config.telemetry.sampleRatio,
      exportDelayMs: config.telemetry.exportDelayMs,
    });
  }
  installObservability(fastify, {
    service,
    config,
    ...(options.api ? { api: options.api } : {}),
    refuse: (request, reply) =>
      sendProblem(reply, request, toProblem(new ProtocolError(401, 'unauthenticated', 'a scrape of /metrics must present METRICS_TOKEN as a bearer token')), RENDERERS[options.api ?? 'v1']),
  });
  if (options.api) await mountApi(app, options.api, mounted, options.logger);
  return app;
}

/**
 * Makes an API app answer exactly its registry: every error in the generation's shape, every route Nest mounted an
 * infrastructure route (or refuse to start), every operation the compiled request path of its handler
 * (operation-routes.ts), and every operation without a handler a 501 after its gate.
 */
async function mountApi(app: NestFastifyApplication, generation: ApiGeneration, mounted: readonly MountedRoute[], logger: Logger): Promise<void> {
  const renderer = RENDERERS[generation];
  // What fails before an operation's handler (body parsing, unknown routes) and the infrastructure routes' failures.
  app.useGlobalFilters(new ProblemFilter(renderer, logger));
  await app.init();
  const handlers = new Map<string, OperationHandler>();
  const routes = registryRoutes(generation);
  try {
    compareWithRegistry(generation, mounted, INFRASTRUCTURE_ROUTES);
    for (const handler of operationHandlers(app.get(ModulesContainer))) handlers.set(handler.operationId, handler);
    const strays = [...handlers.keys()].filter((id) => !routes.some((route) => route.operationId === id));
    if (strays.length > 0) throw new Error(`${generation} has handlers for operations it does not serve: ${strays.join(', ')}`);
  } catch (error) {
    await app.close();
    throw error;
  }
  const fastify = app.getHttpAdapter().getInstance();
  const isInfrastructure = (url: string) => INFRASTRUCTURE_ROUTES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
  // Hooks run in this order: resource ids in their canonical spelling (everything after reads only that), the
  // address-keyed rate limit (authenticated operations are limited by their gate, once the credential is known),
  // then 405 for a known path with another method.
  installCanonicalResourceIds(fastify, generation);
  const config = app.get<AppConfig>(APP_CONFIG);
  installRateLimit(fastify, new RateLimiter(generation, config, app.get<Redis>(REDIS)), generation, isInfrastructure);
  installMethodNotAllowed(fastify, generation);
  if (generation === 'v1') installRepresentationEtags(fastify);
  const options = { generation, gate: app.get<OperationGate>(OPERATION_GATE, { strict: false }), database: app.get<Database>(DATABASE), config, renderer, logger };
  for (const route of routes) mountOperation(fastify, route, handlers.get(route.operationId), options);
  const unavailable = new Set(generation === 'v0' ? v0Operations.filter((op) => op.availability === 'unavailable').map((op) => op.operationId) : []);
  const implemented = (id: string) => handlers.has(id) || unavailable.has(id);
  const coverage: RouteCoverage = {
    generation,
    implemented: routes.filter((route) => implemented(route.operationId)).map((route) => route.operationId),
    notImplemented: routes.filter((route) => !implemented(route.operationId)).map((route) => route.operationId),
  };
  installApiReference(fastify, generation, () => referenceDocument(generation, coverage, config, renderer));
  coverageByApp.set(app, coverage);
}

/**
 * Listens on the configured port and shuts down gracefully on SIGTERM/SIGINT: stop accepting, let requests
 * in flight finish, close queues and connections, then exit. A shutdown that takes longer than
 * SHUTDOWN_TIMEOUT_MS is cut short so an orchestrator's kill never finds a hung process.
 */
export async function runService(app: NestFastifyApplication, options: { config: AppConfig; port: number; logger: Logger; service: string }): Promise<void> {
  const { config, port, logger, service } = options;
  await app.listen(port, config.host);
  logger.info({ url: await app.getUrl() }, `${service} listening`);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${service} shutting down`);
    const force = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, `${service} shutdown timed out`);
      logger.flush();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    app
      .close()
      .then(() => stopTracing())
      .then(() => {
        logger.info(`${service} stopped`);
        logger.flush();
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, `${service} shutdown failed`);
        logger.flush();
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * How far V8 lets the heap grow past what its last full collection kept, in percent. Unset, V8 picks a factor of up
 * to 4 under a high allocation rate, and a service keeps the heap it grew under load until its memory reducer runs
 * (api-v1 at 281 MB right after the bench's read rows, 166 MB 30 s later). At 80 it read 227–254 MB right after with
 * the same read throughput; 50 read 231 MB for a few percent of it, 20 read 212 MB for a sixth (docs/performance.md,
 * the fourteenth session).
 */
export const HEAP_GROWING_PERCENT = 80;

/** A service's entry point: validate config (exit with one line naming a bad variable), build, listen. */
export async function serve(service: string, portOf: (config: AppConfig) => number, create: (config: AppConfig, logger: Logger) => Promise<NestFastifyApplication>): Promise<void> {
  // Read by V8 at every full collection, so setting it at start-up, before any load, takes effect.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = loadConfigOrExit();
  const logger = createLogger(config, service);
  try {
    const app = await create(config, logger);
    await runService(app, { config, port: portOf(config), logger, service });
  } catch (error) {
    logger.fatal({ err: error }, `${service} failed to start`);
    logger.flush();
    process.exit(1);
  }
}
