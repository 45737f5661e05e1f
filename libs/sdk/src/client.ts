import { endpointFor } from './endpoint.js';
import { type ApiErrorItem, apiErrorFor, type WorkcellApiError, WorkcellClientError, WorkcellConnectionError, WorkcellTimeoutError } from './errors.js';
import { type OperationId, OPERATIONS, type OperationSpec } from './generated/operations.js';
import type { operations } from './generated/v1-types.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, type RetryPolicy, shouldRetry } from './retry.js';
import { SDK_VERSION } from './version.js';

/** The User-Agent the client sends unless told otherwise: `workcell-sdk/<version> node/<version>`. */
export const DEFAULT_USER_AGENT = `workcell-sdk/${SDK_VERSION}${globalThis.process?.versions?.node ? ` node/${globalThis.process.versions.node}` : ''}`;

/** How long one attempt may take by default: a hung connection fails (and is retried where allowed) instead of waiting forever. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ClientOptions {
  /** A v1 credential (`svc_pat_v2_…`, `svc_sa_v2_…`, `svc_sk_v1_…`); it is sent only as a bearer header. */
  readonly credential: string;
  /**
   * The API's address: a fixed base URL, or a template with `{region}` (and `{cell}`) that the credential's
   * routing hint fills in (contract 9.6), e.g. `https://{region}.api.example.com`.
   */
  readonly baseUrl: string;
  readonly retry?: Partial<RetryPolicy>;
  readonly fetch?: typeof fetch;
  /** How the client waits between attempts (tests pass a recorder). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** New Idempotency-Keys (default: random UUIDs). */
  readonly newIdempotencyKey?: () => string;
  /** The User-Agent header (default: `DEFAULT_USER_AGENT`; a tool built on the SDK may prefix its own name to it). */
  readonly userAgent?: string;
  /**
   * Milliseconds each attempt may take, answer body included (for `download`, until the headers arrive), before it
   * fails with `WorkcellTimeoutError` (default `DEFAULT_TIMEOUT_MS`, 30 s; `null` or 0: no limit).
   */
  readonly timeoutMs?: number | null;
}

/** The generated types of one operation (from the v1 OpenAPI document). */
type Spec<O extends OperationId> = O extends keyof operations ? operations[O] : never;
type SuccessResponse<O extends OperationId> = Spec<O>['responses'][Extract<keyof Spec<O>['responses'], 200 | 201 | 202>];
/** A JSON answer's `data` (all of it for a document without an envelope, `Whole`); a file's text; undefined for 204. */
type DataOf<R, Whole extends boolean> = R extends { content: infer C }
  ? C extends { 'application/json': infer B }
    ? Whole extends true
      ? B
      : B extends { data: infer D }
        ? D
        : undefined
    : string
  : undefined;

/**
 * What an operation answers in the envelope's `data` (undefined for 204; the file's text for a download operation;
 * the whole document for one answered without an envelope, e.g. `getOpenApiDocument`).
 */
export type ResponseData<O extends OperationId> = DataOf<SuccessResponse<O>, (typeof OPERATIONS)[O]['document']>;
/** The operations that answer a file (CSV, JSON Lines…) rather than a JSON envelope: the ones `download` takes. */
export type DownloadOperationId = { [O in OperationId]: (typeof OPERATIONS)[O]['download'] extends true ? O : never }[OperationId];
/** The JSON body an operation takes. */
export type RequestBody<O extends OperationId> = NonNullable<Spec<O>['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
/** One item of a list operation. */
export type ListItem<O extends OperationId> = ResponseData<O> extends readonly (infer I)[] ? I : never;

/** The parameters of one kind (`path`, `query`) an operation declares; `never` when it declares none. */
type ParametersOf<O extends OperationId, K extends 'path' | 'query' | 'header'> = Spec<O> extends { parameters: infer P } ? (K extends keyof P ? NonNullable<P[K]> : never) : never;
/** An operation's path parameters by name, e.g. `{ id: string }`. */
export type PathParams<O extends OperationId> = ParametersOf<O, 'path'>;
/** An operation's query parameters, e.g. `{ cursor?: string; limit?: number }` for a list. */
export type QueryParams<O extends OperationId> = ParametersOf<O, 'query'>;

/** What every call takes besides its parameters. */
interface CommonCallOptions<O extends OperationId> {
  readonly body?: RequestBody<O>;
  /** For idempotent POSTs; generated when absent, and the same on every attempt. */
  readonly idempotencyKey?: string;
  /** Aborts the call; the abort is rethrown as it came (never retried, never wrapped). */
  readonly signal?: AbortSignal;
  /** This call's per-attempt timeout, instead of the client's `timeoutMs` (`null` or 0: no limit). */
  readonly timeoutMs?: number | null;
}

/** `ifMatch`, the resource's ETag (contract 4.4): required by the operations that declare If-Match, refused by the others. */
type IfMatchOption<O extends OperationId> = [ParametersOf<O, 'header'>] extends [never]
  ? { readonly ifMatch?: undefined }
  : 'If-Match' extends keyof ParametersOf<O, 'header'>
    ? { readonly ifMatch: string }
    : { readonly ifMatch?: undefined };

/**
 * The options of one operation, its path and query parameters typed from the OpenAPI document: a parameter it
 * does not declare, a misspelt one or a missing path parameter does not compile.
 */
export type CallOptions<O extends OperationId> = CommonCallOptions<O> &
  IfMatchOption<O> &
  ([PathParams<O>] extends [never] ? { readonly path?: undefined } : { readonly path: Readonly<PathParams<O>> }) &
  ([QueryParams<O>] extends [never] ? { readonly query?: undefined } : { readonly query?: Readonly<QueryParams<O>> });

/** `call`'s options argument: required exactly when the operation needs something in it (path parameters, If-Match). */
export type CallArgs<O extends OperationId> = object extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

/**
 * The options of `request`, the untyped form for callers that know the operation only at run time (the CLI):
 * parameters by name as strings, checked by the API instead of the compiler.
 */
export interface RequestOptions extends Omit<CommonCallOptions<OperationId>, 'body'> {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  /** The resource's ETag, for the If-Match operations (required there). */
  readonly ifMatch?: string;
}

export interface RateLimit {
  readonly limit: number;
  readonly remaining: number;
  /** Unix time in milliseconds. */
  readonly resetAt: number;
}

export interface ApiResponse<T> {
  readonly status: number;
  readonly data: T;
  readonly meta: { readonly limit?: number; readonly nextCursor?: string | null } | null;
  readonly etag: string | null;
  /** The `Location` header: a created resource, or the operation to poll after a 202. */
  readonly location: string | null;
  readonly requestId: string | null;
  readonly rateLimit: RateLimit | null;
  /** The API replayed the stored response of an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;
  /** Attempts made, the first included. */
  readonly attempts: number;
}

/**
 * A file an operation answers (`download`): its bytes as a stream, to write or read as it comes, with what the
 * headers say about it. Read or cancel `body`: an unread answer holds its connection.
 */
export interface ApiDownload extends Omit<ApiResponse<never>, 'data' | 'meta' | 'replayed'> {
  readonly body: ReadableStream<Uint8Array>;
  /** The Content-Type, e.g. `text/csv; charset=utf-8`. */
  readonly contentType: string | null;
  /** The file name Content-Disposition suggests, e.g. `export-….csv`. */
  readonly fileName: string | null;
  /** Content-Length in bytes, when given. */
  readonly size: number | null;
}

/** What a network error says: undici's `fetch failed` hides the reason (ECONNREFUSED, ENOTFOUND, …) in its cause. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = headers.get('x-ratelimit-limit');
  const remaining = headers.get('x-ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset');
  return limit === null || remaining === null || reset === null ? null : { limit: Number(limit), remaining: Number(remaining), resetAt: Number(reset) };
}

/**
 * The official v1 client. Every operation of the registry by name (`client.call('createTag', { body })`),
 * answered as the envelope's `data` with the response's ETag, request id and rate-limit state, or thrown as a
 * `WorkcellApiError` carrying the error document. It retries only what contract 7.4 allows (see retry.ts),
 * never follows redirects with the credential, and refuses to send an If-Match operation without If-Match.
 */
export class WorkcellClient {
  private readonly baseUrl: string;
  private readonly policy: RetryPolicy;
  private readonly fetchFn: typeof fetch;
  private readonly sleepFn: (ms: number) => Promise<void>;
  private readonly newKey: () => string;

  constructor(private readonly options: ClientOptions) {
    // The credential is checked (and its hint read) even for a fixed address: a malformed one fails here, offline.
    const derived = endpointFor(options.credential, options.baseUrl);
    this.baseUrl = derived;
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchFn = options.fetch ?? fetch;
    this.sleepFn = options.sleep ?? sleep;
    this.newKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  }

  /** The address requests go to. */
  get endpoint(): string {
    return this.baseUrl;
  }

  /** One operation by name, its parameters and body typed (`client.call('getTask', { path: { id } })`). */
  call<O extends OperationId>(operationId: O, ...[options]: CallArgs<O>): Promise<ApiResponse<ResponseData<O>>> {
    return this.request(operationId, (options ?? {}) as RequestOptions) as Promise<ApiResponse<ResponseData<O>>>;
  }

  /** `call` for an operation named at run time: the same requests, retries and errors, without the compile-time types. */
  request(operationId: string, options: RequestOptions = {}): Promise<ApiResponse<unknown>> {
    return this.send(operationId, options, (response, attempts, operation) => this.success(response, attempts, operation));
  }

  /**
   * The file a download operation answers (`client.download('downloadExport', { path: { id } })`), as a stream
   * with its Content-Type and name: write it to a file without holding it in memory. `call` answers the same
   * operation's text, for a small file.
   */
  download<O extends DownloadOperationId>(operationId: O, ...[options]: CallArgs<O>): Promise<ApiDownload> {
    return this.downloadRequest(operationId, (options ?? {}) as RequestOptions);
  }

  /** `download` for an operation named at run time. */
  downloadRequest(operationId: string, options: RequestOptions = {}): Promise<ApiDownload> {
    const operation = (OPERATIONS as Record<string, OperationSpec>)[operationId];
    if (operation && !operation.download) return Promise.reject(new WorkcellClientError(`${operationId} answers JSON, not a file: use call or request`));
    return this.send(operationId, options, async (response, attempts) => ({
      ...this.metadataOf(response, attempts),
      body: response.body ?? new Blob([]).stream(),
      contentType: response.headers.get('content-type'),
      fileName: /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null,
      size: response.headers.has('content-length') ? Number(response.headers.get('content-length')) : null,
    }));
  }

  /** One operation's request with the contract's retries, its 2xx answer read by `read` (within the attempt's timeout). */
  private async send<T>(operationId: string, options: RequestOptions, read: (response: Response, attempts: number, operation: OperationSpec) => Promise<T>): Promise<T> {
    const operation: OperationSpec | undefined = (OPERATIONS as Record<string, OperationSpec>)[operationId];
    if (!operation) throw new WorkcellClientError(`unknown operation ${String(operationId)}`);
    if (operation.concurrency === 'if-match' && options.ifMatch === undefined) {
      throw new WorkcellClientError(`${operationId} requires ifMatch: read the resource and pass its ETag (contract 4.4)`);
    }
    const url = this.urlOf(operation, options);
    const headers: Record<string, string> = {
      accept: operation.download ? '*/*' : 'application/json',
      authorization: `Bearer ${this.options.credential}`,
      'user-agent': this.options.userAgent ?? DEFAULT_USER_AGENT,
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
    if (operation.idempotent) headers['idempotency-key'] = options.idempotencyKey ?? this.newKey();
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);

    const chosen = options.timeoutMs === undefined ? this.options.timeoutMs : options.timeoutMs;
    const timeoutMs = chosen === undefined ? DEFAULT_TIMEOUT_MS : (chosen ?? 0);

    for (let attempt = 1; ; attempt++) {
      // A timer of its own per attempt, cleared once the answer is read (a stream handed to the caller is theirs).
      const deadline = timeoutMs > 0 ? new AbortController() : null;
      const timer = deadline ? setTimeout(() => deadline.abort(), timeoutMs) : undefined;
      const signal = deadline && options.signal ? AbortSignal.any([options.signal, deadline.signal]) : (deadline?.signal ?? options.signal);
      // No answer, or none read to its end: a timeout or a lost connection (the caller's own abort passes as it came).
      const noAnswer = (error: unknown) => {
        if (options.signal?.aborted) return error;
        if (deadline?.signal.aborted) return new WorkcellTimeoutError(timeoutMs, url);
        return new WorkcellConnectionError(`could not reach ${url}: ${describe(error)}`, { cause: error });
      };
      try {
        let response: Response | null = null;
        try {
          response = await this.fetchFn(url, { method: operation.method, headers, body, redirect: 'manual', ...(signal ? { signal } : {}) });
        } catch (error) {
          const failure = noAnswer(error);
          if (!(failure instanceof WorkcellConnectionError || failure instanceof WorkcellTimeoutError)) throw failure;
          if (attempt >= this.policy.maxAttempts || !shouldRetry(operation, null)) throw failure;
          await this.sleepFn(retryDelayMs(this.policy, attempt, null));
          continue;
        }
        if (response.status >= 300 && response.status < 400 && response.status !== 304) {
          throw new WorkcellClientError(`the API answered ${response.status} with a redirect; bearer requests are never redirected (contract 9.6): use the regional endpoint of the credential`);
        }
        if (response.ok) return await read(response, attempt, operation).catch((error: unknown) => Promise.reject(noAnswer(error)));
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        if (attempt < this.policy.maxAttempts && shouldRetry(operation, response.status)) {
          await response.body?.cancel();
          await this.sleepFn(retryDelayMs(this.policy, attempt, retryAfter));
          continue;
        }
        throw await this.failure(response, retryAfter).catch((error: unknown) => Promise.reject(noAnswer(error)));
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** Every item of a list operation, page by page (each page is one `call`, with its retries). */
  paginate<O extends OperationId>(operationId: O, ...[options]: CallArgs<O>): AsyncGenerator<ListItem<O>, void, undefined> {
    return this.paginateRequest(operationId, (options ?? {}) as RequestOptions) as AsyncGenerator<ListItem<O>, void, undefined>;
  }

  /** `paginate` for an operation named at run time: it goes on while `meta.nextCursor` names a next page, even past an empty one. */
  async *paginateRequest(operationId: string, options: RequestOptions = {}): AsyncGenerator<unknown, void, undefined> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.request(operationId, { ...options, query: { ...options.query, ...(cursor === undefined ? {} : { cursor }) } });
      for (const item of page.data as readonly unknown[]) yield item;
      const next = page.meta?.nextCursor ?? null;
      if (next === null) return;
      // A cursor that leads back to itself would page forever: a broken answer, not the end of the list.
      if (next === cursor) throw new WorkcellClientError(`${operationId} answered the same nextCursor again (${next}); stopping`);
      cursor = next;
    }
  }

  private urlOf(operation: OperationSpec, options: RequestOptions): string {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = options.path?.[name];
      if (value === undefined) throw new WorkcellClientError(`path parameter ${name} is required for ${operation.method} ${operation.path}`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(key, String(value));
    const search = query.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /** A JSON envelope's `data` and `meta`; a file's text as `data` (what a download operation answers `call`). */
  private async success<T>(response: Response, attempts: number, operation: OperationSpec): Promise<ApiResponse<T>> {
    const text = await response.text();
    const parsed: unknown = operation.download || !text ? undefined : JSON.parse(text);
    const envelope = (operation.download ? { data: text } : operation.document ? { data: parsed } : (parsed ?? {})) as { data?: T; meta?: ApiResponse<T>['meta'] };
    return {
      ...this.metadataOf(response, attempts),
      data: envelope.data as T,
      meta: envelope.meta ?? null,
      replayed: response.headers.get('idempotency-replayed') === 'true',
    };
  }

  private metadataOf(response: Response, attempts: number) {
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      location: response.headers.get('location'),
      requestId: response.headers.get('x-request-id'),
      rateLimit: rateLimitOf(response.headers),
      attempts,
    };
  }

  private async failure(response: Response, retryAfter: number | null): Promise<WorkcellApiError> {
    const text = await response.text();
    let errors: ApiErrorItem[] = [];
    try {
      errors = (JSON.parse(text) as { errors?: ApiErrorItem[] }).errors ?? [];
    } catch {
      // Not an error document (a proxy in between): keep the status.
    }
    if (errors.length === 0) errors = [{ code: 'http_error', detail: text.slice(0, 200) || response.statusText, status: String(response.status), title: response.statusText }];
    return apiErrorFor(response.status, errors, response.headers.get('x-request-id'), retryAfter);
  }
}
