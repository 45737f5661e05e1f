/** One entry of the v1 error document (contract 7.2). */
export interface ApiErrorItem {
  readonly code: string;
  readonly detail: string;
  readonly status: string;
  readonly title: string;
  readonly source?: { readonly pointer?: string; readonly parameter?: string };
}

/** A response the API answered with an error document: status, codes, request id and Retry-After. */
export class WorkcellApiError extends Error {
  readonly code: string;

  constructor(
    readonly status: number,
    readonly errors: readonly ApiErrorItem[],
    readonly requestId: string | null,
    /** Seconds from Retry-After, when the API sent it. */
    readonly retryAfter: number | null,
  ) {
    super(`${status} ${errors[0]?.code ?? 'error'}: ${errors[0]?.detail ?? 'the request failed'}${requestId ? ` (request ${requestId})` : ''}`);
    this.name = 'WorkcellApiError';
    this.code = errors[0]?.code ?? 'unknown';
  }
}

/** The client refused to send a request (a missing precondition, a credential for another region, …). */
export class WorkcellClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkcellClientError';
  }
}
