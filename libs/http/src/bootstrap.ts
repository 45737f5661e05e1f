import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { type AppConfig, loadConfigOrExit } from '@workcell/config';
import { createLogger, type Logger, NestPinoLogger } from './logger.js';
import { installRepresentationEtags } from './preconditions.js';
import { type ApiGeneration, compareWithRegistry, type MountedRoute, registryRoutes, type RouteCoverage } from './operations.js';
import { ProtocolError, toProblem } from './problems.js';
import { type ErrorRenderer, ProblemFilter, sendProblem, v0Errors, v1Errors } from './protocols.js';
import { installRateLimit } from './rate-limit.js';
import { applyServerLimits } from './server-limits.js';
import { APP_CONFIG, DATABASE, REDIS } from './tokens.js';
import { IdempotencyInterceptor } from './idempotency.js';
import type { Database } from '@workcell/db';
import { RequestValidationInterceptor } from './validation.js';
import type { Redis } from '@workcell/redis';

/** Incoming X-Request-Id values are kept only when they are short and harmless; otherwise we mint one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

export interface HttpApplicationOptions {
  readonly logger: Logger;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit?: number;
  /** For the API apps: the registry generation whose operations this app serves, and its error shape. */
  readonly api?: ApiGeneration;
  /** Rewrites the request path before routing (api-v0: strips a base address's path prefix). */
  readonly rewriteUrl?: (url: string) => string;
}

/** Routes every service has that are not API operations. */
export const INFRASTRUCTURE_ROUTES = ['/healthz', '/readyz', '/trpc', '/openapi.json'];

const coverageByApp = new WeakMap<object, RouteCoverage>();

/** Which registry operations an API app implements (the rest answer 501). */
export function routeCoverage(app: NestFastifyApplication): RouteCoverage {
  const coverage = coverageByApp.get(app);
  if (!coverage) throw new Error('routeCoverage(): not an initialised API application');
  return coverage;
}

const RENDERERS: Record<ApiGeneration, ErrorRenderer> = { v0: v0Errors, v1: v1Errors };

/**
 * Creates a NestJS application on Fastify with the platform's request plumbing: a request id on every
 * request and response, and exactly one structured log line per request (method, route template, status,
 * duration, request id; never headers or the raw URL, which may carry secrets).
 */
export async function createHttpApplication(
  rootModule: Type<unknown> | DynamicModule,
  options: HttpApplicationOptions,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    genReqId: (req: IncomingMessage) => requestIdFor(req.headers['x-request-id']),
    // Fastify answers idle keep-alive sockets on close, so shutdown waits only for requests in flight.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ...(options.rewriteUrl ? { rewriteUrl: (req: IncomingMessage) => options.rewriteUrl!(req.url ?? '/') } : {}),
  });
  const fastify = adapter.getInstance();
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // A request that finishes during shutdown closes its connection, so a keep-alive client cannot hold it open.
  fastify.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async (request: FastifyRequest, reply) => {
    options.logger.info(
      {
        requestId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });
  const mounted: MountedRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) mounted.push({ method, url: route.url });
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
  });
  applyServerLimits(fastify, app.get<AppConfig>(APP_CONFIG));
  if (options.api) await mountApi(app, options.api, mounted, options.logger);
  return app;
}

/**
 * Makes an API app answer exactly its registry: every error in the generation's shape, every mounted
 * route a registry operation (or refuse to start), every operation without a handler a 501.
 */
async function mountApi(app: NestFastifyApplication, generation: ApiGeneration, mounted: readonly MountedRoute[], logger: Logger): Promise<void> {
  const renderer = RENDERERS[generation];
  app.useGlobalFilters(new ProblemFilter(renderer, logger));
  app.useGlobalInterceptors(new RequestValidationInterceptor(app.get(Reflector), generation));
  if (generation === 'v1') app.useGlobalInterceptors(new IdempotencyInterceptor(app.get(Reflector), app.get<Database>(DATABASE)));
  await app.init();
  let coverage: RouteCoverage;
  try {
    coverage = compareWithRegistry(generation, mounted, INFRASTRUCTURE_ROUTES);
  } catch (error) {
    await app.close();
    throw error;
  }
  const fastify = app.getHttpAdapter().getInstance();
  const isInfrastructure = (url: string) => INFRASTRUCTURE_ROUTES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
  installRateLimit(fastify, generation, app.get<AppConfig>(APP_CONFIG), app.get<Redis>(REDIS), isInfrastructure);
  if (generation === 'v1') installRepresentationEtags(fastify);
  const byId = new Map(registryRoutes(generation).map((r) => [r.operationId, r]));
  for (const operationId of coverage.notImplemented) {
    const route = byId.get(operationId)!;
    fastify.route({
      method: route.method as 'GET',
      url: route.url,
      handler: async (request, reply) => {
        sendProblem(reply, request, toProblem(new ProtocolError(501, 'not_implemented', `${operationId} is not implemented yet`)), renderer);
        return reply;
      },
    });
  }
  coverageByApp.set(app, coverage);
}

/**
 * Listens on the configured port and shuts down gracefully on SIGTERM/SIGINT: stop accepting, let requests
 * in flight finish, close queues and connections, then exit. A shutdown that takes longer than
 * SHUTDOWN_TIMEOUT_MS is cut short so an orchestrator's kill never finds a hung process.
 */
export async function runService(
  app: NestFastifyApplication,
  options: { config: AppConfig; port: number; logger: Logger; service: string },
): Promise<void> {
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

/** A service's entry point: validate config (exit with one line naming a bad variable), build, listen. */
export async function serve(
  service: string,
  portOf: (config: AppConfig) => number,
  create: (config: AppConfig, logger: Logger) => Promise<NestFastifyApplication>,
): Promise<void> {
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
