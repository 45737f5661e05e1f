/** What one load process is asked to run (LoadSpec, a JSON file) and what it answers (LoadResult, JSON on stdout). */

export interface LoadSpec {
  /** The server's origin, http://127.0.0.1:port. */
  readonly origin: string;
  readonly connections: number;
  readonly seconds: number;
  /**
   * Requests per second over all connections, sent evenly paced (runPaced; `connections` bounds how many are in
   * flight); absent: as fast as the server answers (autocannon).
   */
  readonly overallRate?: number;
  readonly method: 'GET' | 'POST';
  /** `{id}` is replaced per request by one of `ids`, picked at random. */
  readonly path: string;
  readonly ids?: readonly string[];
  /** Bearer tokens; each request picks one at random (none: no Authorization header). */
  readonly tokens: readonly string[];
  /** A JSON body; `{n}` in its string values becomes a number unique within the run. */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Send a fresh Idempotency-Key with every request. */
  readonly idempotencyKey?: boolean;
  /** Report the ids of created resources (the last segment of each 2xx answer's Location). */
  readonly collectCreatedIds?: boolean;
}

export interface LoadResult {
  readonly requests: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly seconds: number;
  /** 2xx answers per second. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<string, number>;
  readonly createdIds: string[];
}
