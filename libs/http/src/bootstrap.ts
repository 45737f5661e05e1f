import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { type AppConfig, loadConfigOrExit } from '@workcell/config';
import { createLogger, type Logger, NestPinoLogger } from './logger.js';

/** Incoming X-Request-Id values are kept only when they are short and harmless; otherwise we mint one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

export interface HttpApplicationOptions {
  readonly logger: Logger;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit?: number;
}

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
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
  });
  return app;
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
