import { HttpException } from '@nestjs/common';
import { isDependencyUnavailable } from '@workcell/config';
import { type DomainErrorCode, type FieldIssue, isDomainError } from '@workcell/domain';
import { titleFor } from '@workcell/registry';

/**
 * One representation of "this request failed" at the edge, before either API generation renders it in
 * its own shape. Domain errors carry codes only; their HTTP status is decided here, and nowhere else.
 */
export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly issues: readonly FieldIssue[];
  readonly headers: Readonly<Record<string, string>>;
}

export const DOMAIN_STATUS: Readonly<Record<DomainErrorCode, number>> = {
  validation_failed: 400,
  invalid_precondition: 400,
  unauthenticated: 401,
  credential_expired: 401,
  credential_revoked: 401,
  workspace_locked: 403,
  insufficient_scope: 403,
  forbidden: 403,
  insufficient_grant: 403,
  insufficient_project_access: 403,
  not_found: 404,
  conflict: 409,
  version_conflict: 409,
  last_administrator: 409,
  built_in_role: 409,
  role_in_use: 409,
  hierarchy_cycle: 409,
  timer_already_running: 409,
  timer_not_running: 409,
  custom_field_values_in_use: 409,
  upload_not_received: 409,
  upload_mismatch: 409,
  upload_already_received: 409,
  upload_completed: 409,
  file_not_available: 409,
  upload_expired: 410,
  download_expired: 410,
  export_not_ready: 409,
  export_expired: 410,
  already_member: 409,
  invitation_pending: 409,
  invitation_not_pending: 409,
  automation_run_not_running: 409,
  resend_too_soon: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  precondition_required: 428,
};

/** The error document's title of a status (one table with the generated documents' examples). */
export { titleFor };

/** An error raised at the edge itself (unknown route, not implemented, bad body) with its status and code. */
export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly issues: readonly FieldIssue[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.name = 'ProtocolError';
  }
}

/** What a 503 says: never which dependency or why (its error may name hosts, codes or internals). */
export const UNAVAILABLE_DETAIL = 'a dependency is temporarily unavailable; retry shortly';

/** The answer to a dependency that is unavailable (isDependencyUnavailable, or a caller's own finding): 503, retry in a second. */
export function dependencyUnavailable(): ProtocolError {
  return new ProtocolError(503, 'service_unavailable', UNAVAILABLE_DETAIL, [], { 'retry-after': '1' });
}

/** Fastify's own request errors (body parsing, size limits, content types), by their error codes. */
const FASTIFY_ERRORS: Readonly<Record<string, { status: number; code: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
};

/** Nest re-throws Fastify's request errors as HttpExceptions of the same status. */
const HTTP_EXCEPTION_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** SQLSTATE class 22, data exception: 22001 too long, 22003 out of range, 22007/22008 bad date, 22021 bad byte, 22P02 bad text, 22P05 untranslatable character, … */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;
/** Prisma's names for the data exceptions it classifies (value too long, invalid input value, value out of range). */
const PRISMA_DATA_CODES = new Set(['P2000', 'P2007', 'P2020']);

/**
 * Whether PostgreSQL refused a value of the request itself (SQLSTATE class 22): a permanent error of the input,
 * so a 400 `validation_failed`, never a 500 or a retryable 503. The edge refuses what it can name first (NUL,
 * dates outside 0001-9999, malformed numbers); this is the backstop for the whole class. Follows `cause` chains
 * and Prisma's `meta.driverAdapterError`, since Prisma, its pg adapter and pg each wrap what they get.
 */
export function isDataException(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 12; seen++) {
    const current = pending.shift();
    if (current === null || typeof current !== 'object') continue;
    const { code, originalCode, cause, meta } = current as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof code === 'string' && (DATA_EXCEPTION.test(code) || PRISMA_DATA_CODES.has(code))) return true;
    if (typeof originalCode === 'string' && DATA_EXCEPTION.test(originalCode)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}

/** The Problem of a value the database refused; never says which value or why (PostgreSQL's text may echo it). */
export const DATA_EXCEPTION_DETAIL = 'a value of the request is outside what can be stored (text with NUL, a date or number out of range, or text too long)';

/** Turns anything thrown while handling a request into a Problem; unknown errors become a bare 500. */
export function toProblem(thrown: unknown): Problem {
  const error = isDependencyUnavailable(thrown) ? dependencyUnavailable() : thrown;
  if (isDataException(error)) {
    return { status: 400, code: 'validation_failed', title: titleFor(400), detail: DATA_EXCEPTION_DETAIL, issues: [], headers: {} };
  }
  if (error instanceof ProtocolError) {
    return { status: error.status, code: error.code, title: titleFor(error.status), detail: error.message, issues: error.issues, headers: error.headers };
  }
  if (isDomainError(error)) {
    const status = DOMAIN_STATUS[error.code];
    // A refusal that ends by itself (resend_too_soon) says when, as a 429 or 503 would.
    const retryAfter = error.meta['retryAfterSeconds'];
    const headers: Record<string, string> = typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {};
    return { status, code: error.code, title: titleFor(status), detail: error.message, issues: error.issues, headers };
  }
  const fastifyCode = (error as { code?: unknown }).code;
  if (typeof fastifyCode === 'string' && FASTIFY_ERRORS[fastifyCode]) {
    const { status, code } = FASTIFY_ERRORS[fastifyCode];
    return { status, code, title: titleFor(status), detail: (error as Error).message, issues: [], headers: {} };
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return { status: 400, code: 'invalid_json', title: titleFor(400), detail: 'the request body is not valid JSON', issues: [], headers: {} };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return { status, code: 'route_not_found', title: titleFor(status), detail: 'no such route', issues: [], headers: {} };
    const code = status === 400 && /JSON/i.test(error.message) ? 'invalid_json' : (HTTP_EXCEPTION_CODES[status] ?? (status >= 500 ? 'internal_error' : 'request_failed'));
    return { status, code, title: titleFor(status), detail: status >= 500 ? 'the request could not be completed' : error.message, issues: [], headers: {} };
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: 'invalid_request', title: titleFor(status), detail: (error as Error).message, issues: [], headers: {} };
  }
  return { status: 500, code: 'internal_error', title: titleFor(500), detail: 'the request could not be completed', issues: [], headers: {} };
}
