import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  RESPONSE_PASSTHROUGH_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
  SSE_METADATA,
} from '@nestjs/common/internal';
import type { ModulesContainer } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import type { Database } from '@workcell/db';
import type { Operation } from '@workcell/domain';
import { findV1Operation, v0Operations } from '@workcell/registry';
import { enterLegacyOperation } from './deprecation.js';
import { checkIdempotencyKey, runIdempotent } from './idempotency.js';
import type { Logger } from './logger.js';
import type { OperationGate } from './operation-gate.js';
import { type ApiGeneration, OPERATION_METADATA, OPERATION_PARAMETERS, type OperationParameter, type RegistryRoute } from './operations.js';
import { type ErrorRenderer, sendFailure } from './protocols.js';
import { notImplemented } from './reference.js';
import { type OperationInput, validateOperationInput } from './validation.js';

/**
 * The one request path of every API operation (issue 28), compiled at start-up from the registry and the controller
 * method that implements the operation: one async Fastify handler per operation, instead of Nest's per-request guard,
 * interceptor and rxjs chain. In this order: the gate (rate limit, authentication, scopes: one Redis script for a
 * known credential), v0's deprecation headers and `unavailable` refusal, v1's Idempotency-Key syntax, the registry's
 * input validation, the success status and the handler's declared headers, the handler (under its Idempotency-Key
 * when it has one), and the answer. Every failure is rendered once, in the generation's error document.
 *
 * Nest stays the application container: it builds the controllers, and it still routes the infrastructure routes
 * (health), behind the global guard that refuses anything the registry does not declare. A controller method is an
 * operation's handler by `@Operation()`/`@LegacyOperation()`; its parameters are `@Op()`, `@Input()`, `@Req()` and
 * `@Res()` (`passthrough` or not). Anything else Nest would have applied to a route (guards, interceptors, pipes,
 * filters, `@HttpCode`, `@Redirect`, `@Render`, `@Sse`, other parameter decorators) is refused at start-up, so
 * nothing declared is silently ignored.
 */

type Argument = (request: OperationRequest, reply: FastifyReply) => unknown;

export type OperationRequest = FastifyRequest & { operation?: Operation; operationInput?: OperationInput };

/** A controller method that implements an operation. */
export interface OperationHandler {
  readonly operationId: string;
  readonly instance: object;
  readonly methodName: string;
}

const UNSUPPORTED_METHOD_METADATA = [HTTP_CODE_METADATA, REDIRECT_METADATA, RENDER_METADATA, SSE_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA];
const UNSUPPORTED_CLASS_METADATA = [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA];

/** Every controller method the Nest container built that names a registry operation; two for one operation is an error. */
export function operationHandlers(modules: ModulesContainer): OperationHandler[] {
  const handlers = new Map<string, OperationHandler>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const methodName of Object.getOwnPropertyNames(prototype)) {
        const method = Object.getOwnPropertyDescriptor(prototype, methodName)?.value as unknown;
        if (typeof method !== 'function' || methodName === 'constructor') continue;
        const operationId = Reflect.getMetadata(OPERATION_METADATA, method) as string | undefined;
        if (operationId === undefined) continue;
        const other = handlers.get(operationId);
        if (other) throw new Error(`${operationId} has two handlers: ${other.instance.constructor.name}.${other.methodName} and ${instance.constructor.name}.${methodName}`);
        handlers.set(operationId, { operationId, instance, methodName });
      }
    }
  }
  return [...handlers.values()];
}

interface Parameters {
  readonly resolve: Argument[];
  /** The handler takes the reply without `passthrough`: it sends the answer itself. */
  readonly sendsItself: boolean;
}

/** The handler's parameters, each as a function of the request and its reply. */
function parametersOf(handler: OperationHandler): Parameters {
  const name = `${handler.instance.constructor.name}.${handler.methodName}`;
  const ours = (Reflect.getMetadata(OPERATION_PARAMETERS, handler.instance, handler.methodName) ?? {}) as Record<string, OperationParameter>;
  const nests = (Reflect.getMetadata(ROUTE_ARGS_METADATA, handler.instance.constructor, handler.methodName) ?? {}) as Record<string, { index: number }>;
  const resolve: Argument[] = [];
  let reply = false;
  for (const [index, kind] of Object.entries(ours)) {
    resolve[Number(index)] =
      kind === 'op'
        ? (request) => {
            if (!request.operation) throw new Error(`@Op() on ${name}, an operation that authenticates nobody`);
            return request.operation;
          }
        : (request) => request.operationInput;
  }
  for (const [key, { index }] of Object.entries(nests)) {
    const type = key.includes(CUSTOM_ROUTE_ARGS_METADATA) ? undefined : Number(key.split(':')[0]);
    if (type === RouteParamtypes.REQUEST) resolve[index] = (request) => request;
    else if (type === RouteParamtypes.RESPONSE) {
      resolve[index] = (_request, response) => response;
      reply = true;
    } else throw new Error(`${name}: parameter ${index} has a decorator the compiled request path does not pass (only @Op, @Input, @Req and @Res)`);
  }
  const length = (handler.instance as Record<string, (...args: unknown[]) => unknown>)[handler.methodName]!.length;
  for (let index = 0; index < length; index += 1) if (!resolve[index]) throw new Error(`${name}: parameter ${index} has no decorator`);
  const passthrough = Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, handler.instance.constructor, handler.methodName) === true;
  return { resolve, sendsItself: reply && !passthrough };
}

function refuseUnsupported(handler: OperationHandler): void {
  const method = (handler.instance as Record<string, object>)[handler.methodName]!;
  const found = [
    ...UNSUPPORTED_METHOD_METADATA.filter((key) => Reflect.getMetadata(key, method) !== undefined),
    ...UNSUPPORTED_CLASS_METADATA.filter((key) => Reflect.getMetadata(key, handler.instance.constructor) !== undefined),
  ];
  if (found.length > 0) throw new Error(`${handler.instance.constructor.name}.${handler.methodName}: ${found.join(', ')} are not applied on the compiled request path`);
}

/** Sends what a handler returned: a stream as a stream (none for HEAD), anything else as JSON (nothing for undefined). */
function answer(request: FastifyRequest, reply: FastifyReply, result: unknown): FastifyReply {
  const stream = result instanceof StreamableFile ? result.getStream() : result instanceof Readable ? result : undefined;
  if (stream === undefined) return reply.send(result);
  // Fastify's HEAD route would read the whole source for nothing; an empty stream keeps the Content-Length set.
  if (request.method === 'HEAD') {
    stream.destroy();
    return reply.send(Readable.from([]));
  }
  return reply.send(stream);
}

export interface CompileOptions {
  readonly generation: ApiGeneration;
  readonly gate: OperationGate;
  readonly database: Database;
  readonly config: AppConfig;
  readonly renderer: ErrorRenderer;
  readonly logger: Logger;
}

const v0ById = new Map(v0Operations.map((op) => [op.operationId, op]));

/**
 * Mounts one registry route: the compiled request path of its handler, or, without one, the gate and then 501 (an
 * unimplemented operation still answers 401/403 first). A v0 operation the registry marks `unavailable` needs no
 * handler: it is refused after the gate.
 */
export function mountOperation(fastify: FastifyInstance, route: RegistryRoute, handler: OperationHandler | undefined, options: CompileOptions): void {
  const { generation, gate, database, config, renderer, logger } = options;
  const { operationId } = route;
  const v1 = generation === 'v1' ? findV1Operation(operationId) : undefined;
  const v0 = generation === 'v0' ? v0ById.get(operationId) : undefined;
  if (!v1 && !v0) throw new Error(`unknown ${generation} operation ${operationId}`);
  if (handler) refuseUnsupported(handler);
  const parameters = handler ? parametersOf(handler) : undefined;
  const method = handler ? ((handler.instance as Record<string, (...args: unknown[]) => unknown>)[handler.methodName]!.bind(handler.instance) as (...args: unknown[]) => unknown) : undefined;
  const headers = handler ? ((Reflect.getMetadata(HEADERS_METADATA, (handler.instance as Record<string, object>)[handler.methodName]!) ?? []) as { name: string; value: string }[]) : [];
  const success = v1?.success ?? 200;

  const run = (request: OperationRequest, reply: FastifyReply): Promise<unknown> => Promise.resolve(method!(...parameters!.resolve.map((resolve) => resolve(request, reply))));

  fastify.route({
    method: route.method as 'GET',
    url: route.url,
    handler: async (request: OperationRequest, reply) => {
      try {
        await gate.enter(operationId, request, reply);
        if (v0) enterLegacyOperation(v0, config, request, reply);
        if (!method) throw notImplemented(operationId);
        if (v1) checkIdempotencyKey(v1, request);
        request.operationInput = validateOperationInput(generation, operationId, request);
        reply.code(success);
        for (const { name, value } of headers) reply.header(name, value);
        const result = v1 ? await runIdempotent(database, v1, request, reply, () => run(request, reply)) : await run(request, reply);
        if (parameters!.sendsItself || reply.sent) return reply;
        return answer(request, reply, result);
      } catch (error) {
        sendFailure(reply, request, error, renderer, logger);
        return reply;
      }
    },
  });
}
