import { type CallHandler, createParamDecorator, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError, type FieldIssue, issuesOf } from '@workcell/domain';
import { findV1Operation, v0Operations } from '@workcell/registry';
import { type ApiGeneration, OPERATION_METADATA } from './operations.js';

/** What a handler receives: the request's parts, parsed by the operation's registry schemas. */
export interface OperationInput<Path = Record<string, string>, Query = Record<string, unknown>, Body = unknown, Headers = Record<string, string>> {
  readonly path: Path;
  readonly query: Query;
  readonly body: Body;
  readonly headers: Headers;
}

/** Headers with their own protocol (428/412/400 invalid_precondition, idempotency conflicts), not plain validation. */
const PROTOCOL_HEADERS = ['if-match'];

type AnySchema = z.ZodType;

function parameterIssues(error: z.ZodError, where: 'path' | 'query' | 'header'): FieldIssue[] {
  return error.issues.map((issue) => {
    const name = issue.path.length > 0 ? String(issue.path[0]) : issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys.join(', ') : where;
    return { pointer: '', parameter: name, message: `${where} parameter ${name}: ${issue.message}` };
  });
}

function parse(schema: AnySchema | null, value: unknown, where: 'path' | 'query' | 'header' | 'body', issues: FieldIssue[]): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...(where === 'body' ? issuesOf(result.error) : parameterIssues(result.error, where)));
  return undefined;
}

const v0ById = new Map(v0Operations.map((op) => [op.operationId, op]));

/**
 * Validates every API request against its operation's registry schemas (the same zod objects the OpenAPI
 * documents are generated from) before the handler runs: path, query, headers and body, all problems at
 * once, each with a JSON pointer (body) or the parameter's name. Runs after authentication, so an
 * unauthenticated caller learns nothing about an operation's inputs.
 */
@Injectable()
export class RequestValidationInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    private readonly generation: ApiGeneration,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    const operationId = this.reflector.get<string | undefined>(OPERATION_METADATA, context.getHandler());
    if (!operationId) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & { operationInput?: OperationInput }>();
    const issues: FieldIssue[] = [];
    let input: OperationInput;
    if (this.generation === 'v1') {
      const op = findV1Operation(operationId);
      if (!op) return next.handle();
      const query = request.query as Record<string, unknown>;
      if (!op.request.query && Object.keys(query).length > 0) {
        issues.push(...Object.keys(query).map((name) => ({ pointer: '', parameter: name, message: `query parameter ${name} is not accepted by ${operationId}` })));
      }
      const headerShape = Object.entries(op.request.headers?.shape ?? {}).filter(([name]) => !PROTOCOL_HEADERS.includes(name));
      const headerCheck = headerShape.length > 0 ? z.object(Object.fromEntries(headerShape)) : null;
      const headerValues = Object.fromEntries(headerShape.map(([name]) => [name, request.headers[name]]));
      input = {
        path: parse(op.request.path, request.params, 'path', issues) as Record<string, string>,
        query: parse(op.request.query, query, 'query', issues) as Record<string, unknown>,
        headers: parse(headerCheck, headerValues, 'header', issues) as Record<string, string>,
        body: parse(op.request.body, request.body ?? undefined, 'body', issues),
      };
    } else {
      const op = v0ById.get(operationId);
      if (!op) return next.handle();
      input = {
        path: parse(op.request.path, request.params, 'path', issues) as Record<string, string>,
        query: parse(op.request.query, request.query, 'query', issues) as Record<string, unknown>,
        headers: {},
        body: parse(op.request.body, request.body ?? undefined, 'body', issues),
      };
    }
    if (issues.length > 0) throw new DomainError('validation_failed', `the request does not match ${operationId}`, issues);
    request.operationInput = input;
    return next.handle();
  }
}

/** The request's parts as parsed by the operation's registry schemas. */
export const Input = createParamDecorator((_data: unknown, ctx: ExecutionContext): OperationInput => {
  const input = ctx.switchToHttp().getRequest<{ operationInput?: OperationInput }>().operationInput;
  if (!input) throw new Error('@Input() used on a handler without a registry operation');
  return input;
});
