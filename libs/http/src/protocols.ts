import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from './logger.js';
import { type Problem, titleFor, toProblem } from './problems.js';
import { recordErrorCode } from './observability.js';

/** How an API generation renders a failed request. */
export interface ErrorRenderer {
  /** The protection space named in `WWW-Authenticate` of this generation's 401s (RFC 6750 `realm`). */
  readonly realm: string;
  render(problem: Problem, requestId: string): unknown;
  /** The generation's own status for a problem, when it differs from the shared mapping (v0 only). */
  adapt?(problem: Problem): Problem;
}

/** v1 error document (contract 7.2): errors[] with code/detail/status/title (+ a JSON pointer), meta.requestId. */
export const v1Errors: ErrorRenderer = {
  realm: 'workcell-v1',
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
  timer_already_running: 'invalid_request',
  timer_not_running: 'invalid_request',
  conflict: 'invalid_request',
  version_conflict: 'invalid_request',
  hierarchy_cycle: 'invalid_request',
  precondition_failed: 'invalid_request',
  invalid_precondition: 'invalid_request',
};

/**
 * Contract 7.1 knows no 409/412/428: in v0 a write the resource's state refuses (a timer already running,
 * none running, an organization that people belong to becoming a person, …) is a 400, and nothing changed.
 */
const V0_STATUS: Readonly<Record<number, number>> = { 409: 400, 412: 400, 428: 400 };

/** v0 legacy error shape (documented in v0.openapi.json as LegacyError): { error: { code, message } }. */
export const v0Errors: ErrorRenderer = {
  realm: 'workcell-v0',
  render(problem) {
    const message = problem.issues.length > 0 ? `${problem.detail}: ${problem.issues.map((i) => `${i.parameter ?? (i.pointer || '/')} ${i.message}`).join('; ')}` : problem.detail;
    return { error: { code: LEGACY_CODES[problem.code] ?? problem.code, message } };
  },
  adapt(problem) {
    const status = V0_STATUS[problem.status];
    return status === undefined ? problem : { ...problem, status, title: titleFor(status) };
  },
};

/** A bearer token was presented (any spelling of the scheme), as opposed to no or another kind of authentication. */
const PRESENTED_BEARER = /^bearer[ \t]+\S/i;

/**
 * The RFC 6750 challenge of a 401: `Bearer realm="…"`, plus `error="invalid_token"` when a bearer token was
 * presented and refused (unknown, malformed, expired or revoked). Without a bearer token (no Authorization
 * header, or another scheme) the challenge carries no error code (RFC 6750 3.1).
 */
export function bearerChallenge(request: FastifyRequest, realm: string): string {
  const authorization = request.headers.authorization;
  const presented = typeof authorization === 'string' && PRESENTED_BEARER.test(authorization);
  return presented ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`;
}

/** Every error response of an API app goes through here: the one place its status, headers and shape are set. */
export function sendProblem(reply: FastifyReply, request: FastifyRequest, original: Problem, renderer: ErrorRenderer): void {
  const problem = renderer.adapt ? renderer.adapt(original) : original;
  recordErrorCode(request, problem.code);
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  if (problem.status === 401) reply.header('www-authenticate', bearerChallenge(request, renderer.realm));
  void reply.status(problem.status).type('application/json; charset=utf-8').send(renderer.render(problem, request.id));
}

/**
 * Every failed request of an API app ends here, once: its error mapped to a problem (toProblem) and sent in the
 * generation's shape, unless an answer already went out. A 5xx says nothing about its cause; the cause is logged
 * with the request id instead (a 501, an operation not implemented yet, has none).
 */
export function sendFailure(reply: FastifyReply, request: FastifyRequest, error: unknown, renderer: ErrorRenderer, logger: Logger): void {
  const problem = reportFailure(request, error, logger);
  if (!reply.sent) sendProblem(reply, request, problem, renderer);
}

/** A failure's problem, its cause logged with the request id when it is a 5xx (sendFailure; pages render it their way). */
export function reportFailure(request: FastifyRequest, error: unknown, logger: Logger): Problem {
  const problem = toProblem(error);
  if (problem.status >= 500 && problem.status !== 501)
    logger.error({ requestId: request.id, err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) }, 'request failed');
  return problem;
}

/**
 * What fails outside an operation's compiled request path (Fastify's body parsing, unknown routes, the
 * infrastructure routes Nest serves), rendered like an operation's failure (sendFailure).
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(
    private readonly renderer: ErrorRenderer,
    private readonly logger: Logger,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendFailure(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), error, this.renderer, this.logger);
  }
}

/** What Node's HTTP parser refuses before a request exists, by its error code. */
const CLIENT_ERRORS: Readonly<Record<string, { status: number; code: string; detail: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', detail: "the request did not arrive within the server's time bound" },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'request_header_fields_too_large', detail: 'the request headers are too large' },
};

/**
 * Fastify's clientErrorHandler: a connection whose request never completed (a slow client cut off by the request
 * timeout, oversized headers, bytes that are not HTTP) is answered in the generation's error shape with a fresh
 * request id and closed, like every other refusal (Fastify's default writes a body of its own).
 */
export function clientErrorHandler(renderer: ErrorRenderer): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, code: 'invalid_request', detail: 'the request is not valid HTTP' };
    const base: Problem = { status: known.status, code: known.code, title: titleFor(known.status), detail: known.detail, issues: [], headers: {} };
    const problem = renderer.adapt ? renderer.adapt(base) : base;
    const requestId = randomUUID();
    const body = JSON.stringify(renderer.render(problem, requestId));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
