import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from './logger.js';
import { type Problem, toProblem } from './problems.js';

/** How an API generation renders a failed request. */
export interface ErrorRenderer {
  render(problem: Problem, requestId: string): unknown;
}

/** v1 error document (contract 7.2): errors[] with code/detail/status/title (+ a JSON pointer), meta.requestId. */
export const v1Errors: ErrorRenderer = {
  render(problem, requestId) {
    const errors =
      problem.issues.length > 0
        ? problem.issues.map((issue) => ({
            code: problem.code,
            detail: issue.message,
            status: String(problem.status),
            title: problem.title,
            source: issue.parameter !== undefined ? { parameter: issue.parameter } : { pointer: issue.pointer },
          }))
        : [{ code: problem.code, detail: problem.detail, status: String(problem.status), title: problem.title }];
    return { errors, meta: { requestId } };
  },
};

/** v0's legacy error codes, as documented in v0.openapi.json (LegacyError), for the platform's codes. */
const LEGACY_CODES: Readonly<Record<string, string>> = {
  unauthenticated: 'unauthorized',
  credential_expired: 'unauthorized',
  credential_revoked: 'unauthorized',
  workspace_locked: 'team_locked',
  insufficient_scope: 'forbidden',
  forbidden: 'forbidden',
  validation_failed: 'invalid_request',
  invalid_json: 'invalid_request',
  route_not_found: 'not_found',
  not_found: 'not_found',
  rate_limit_exceeded: 'rate_limited',
};

/** v0 legacy error shape (documented in v0.openapi.json as LegacyError): { error: { code, message } }. */
export const v0Errors: ErrorRenderer = {
  render(problem) {
    const message =
      problem.issues.length > 0 ? `${problem.detail}: ${problem.issues.map((i) => `${i.parameter ?? (i.pointer || '/')} ${i.message}`).join('; ')}` : problem.detail;
    return { error: { code: LEGACY_CODES[problem.code] ?? problem.code, message } };
  },
};

export function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Problem, renderer: ErrorRenderer): void {
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  void reply.status(problem.status).type('application/json; charset=utf-8').send(renderer.render(problem, request.id));
}

/**
 * Catches everything a request can throw (Nest handlers, guards, pipes, Fastify's body parsing, unknown
 * routes) and renders it in the API generation's shape. A 500 says nothing about its cause; the cause is
 * logged with the request id instead.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(
    private readonly renderer: ErrorRenderer,
    private readonly logger: Logger,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = toProblem(error);
    if (problem.status >= 500) this.logger.error({ requestId: request.id, err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) }, 'request failed');
    sendProblem(reply, request, problem, this.renderer);
  }
}
