/** One entry of the v1 error document (contract 7.2). */
export interface ApiErrorItem {
  readonly code: string;
  readonly detail: string;
  readonly status: string;
  readonly title: string;
  readonly source?: { readonly pointer?: string; readonly parameter?: string };
}

/** Every error the client throws extends this (a caller's own abort excepted, which is rethrown as it came). */
export class WorkcellError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    // Each subclass is named after itself (`WorkcellNotFoundError: 404 not_found: …`).
    this.name = new.target.name;
  }
}

/** A response the API answered with an error document: status, codes, request id and Retry-After. */
export class WorkcellApiError extends WorkcellError {
  readonly code: string;

  constructor(
    readonly status: number,
    readonly errors: readonly ApiErrorItem[],
    readonly requestId: string | null,
    /** Seconds from Retry-After, when the API sent it. */
    readonly retryAfter: number | null,
  ) {
    super(`${status} ${errors[0]?.code ?? 'error'}: ${errors[0]?.detail ?? 'the request failed'}${requestId ? ` (request ${requestId})` : ''}`);
    this.code = errors[0]?.code ?? 'unknown';
  }
}

/** 401: the credential is missing, unknown, expired or revoked. */
export class WorkcellAuthenticationError extends WorkcellApiError {}
/** 403: the credential lacks a scope, permission or grant. */
export class WorkcellPermissionError extends WorkcellApiError {}
/** 404: no such resource in the credential's workspace. */
export class WorkcellNotFoundError extends WorkcellApiError {}
/** 409, 412, 428: a conflict with the resource's state, a stale or missing If-Match. */
export class WorkcellConflictError extends WorkcellApiError {}
/** 400, 413, 415, 422: the request itself is invalid. */
export class WorkcellValidationError extends WorkcellApiError {}
/** 429: rate limited (`retryAfter` says how long to wait). */
export class WorkcellRateLimitError extends WorkcellApiError {}
/** 5xx: the API failed or is unavailable. */
export class WorkcellServerError extends WorkcellApiError {}

const FAMILIES: Readonly<Record<number, typeof WorkcellApiError>> = {
  400: WorkcellValidationError,
  401: WorkcellAuthenticationError,
  403: WorkcellPermissionError,
  404: WorkcellNotFoundError,
  409: WorkcellConflictError,
  412: WorkcellConflictError,
  413: WorkcellValidationError,
  415: WorkcellValidationError,
  422: WorkcellValidationError,
  428: WorkcellConflictError,
  429: WorkcellRateLimitError,
};

/** The error of an error answer: the class of its code family, else `WorkcellApiError`. */
export function apiErrorFor(status: number, errors: readonly ApiErrorItem[], requestId: string | null, retryAfter: number | null): WorkcellApiError {
  const Family = FAMILIES[status] ?? (status >= 500 ? WorkcellServerError : WorkcellApiError);
  return new Family(status, errors, requestId, retryAfter);
}

/** No answer: the connection was refused, reset or never made (DNS); the network error is the `cause`. */
export class WorkcellConnectionError extends WorkcellError {}

/** No answer within the client's `timeoutMs` (each attempt has its own). */
export class WorkcellTimeoutError extends WorkcellError {
  constructor(
    readonly timeoutMs: number,
    url: string,
  ) {
    super(`no answer from ${url} within ${timeoutMs} ms`);
  }
}

/** The client refused to send a request (a missing precondition, a credential for another region, …). */
export class WorkcellClientError extends WorkcellError {}
