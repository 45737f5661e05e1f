import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/**
 * The load generator of `npm run bench`: one autocannon run, in a process of its own so the load does not share
 * an event loop with the services, the baseline or the benchmark's receiver. Reads a LoadSpec from the JSON file
 * named by its argument and prints one LoadResult as JSON on stdout.
 */

export interface LoadSpec {
  /** The server's origin, http://127.0.0.1:port. */
  readonly origin: string;
  readonly connections: number;
  readonly seconds: number;
  /** Requests per second over all connections (a fixed-rate load); absent: as fast as the server answers. */
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

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function fill(value: unknown, n: number): unknown {
  if (typeof value === 'string') return value.replaceAll('{n}', String(n));
  if (Array.isArray(value)) return value.map((v) => fill(v, n));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, n)]));
  return value;
}

async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let counter = 0;
  const createdIds: string[] = [];
  const result = await autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.seconds,
    ...(spec.overallRate === undefined ? {} : { overallRate: spec.overallRate }),
    timeout: 30,
    requests: [
      {
        method: spec.method,
        setupRequest: (request) => {
          const n = ++counter;
          const headers: Record<string, string> = {};
          if (spec.tokens.length > 0) headers['authorization'] = `Bearer ${pick(spec.tokens)}`;
          if (spec.idempotencyKey) headers['idempotency-key'] = randomUUID();
          if (spec.body !== undefined) headers['content-type'] = 'application/json';
          return {
            ...request,
            method: spec.method,
            path: spec.ids === undefined ? spec.path : spec.path.replace('{id}', pick(spec.ids)),
            headers,
            ...(spec.body === undefined ? {} : { body: JSON.stringify(fill(spec.body, n)) }),
          };
        },
        ...(spec.collectCreatedIds
          ? {
              onResponse: (status: number, _body: string, _context: object, headers: Record<string, unknown> | undefined) => {
                const location = headers?.['location'] ?? headers?.['Location'];
                if (status >= 200 && status < 300 && typeof location === 'string') createdIds.push(location.split('/').pop()!);
              },
            }
          : {}),
      },
    ],
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]));
  return {
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    createdIds,
  };
}

// Only types are imported from here elsewhere (erased), so this runs only as the load process's entry point.
const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
process.stdout.write(`${JSON.stringify(await runLoad(spec))}\n`);
