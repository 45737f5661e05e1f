import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-spec.js';
import { requestOf, runPaced, TIMEOUT_S } from './paced.js';

/**
 * The load generator of `npm run bench`: one run, in a process of its own so the load does not share an event loop
 * with the services, the baseline or the benchmark's receiver: autocannon as fast as the server answers, or a
 * fixed rate paced evenly (paced.ts). Reads a LoadSpec from the JSON file named by its argument and prints one
 * LoadResult as JSON on stdout.
 */
async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.overallRate !== undefined) return runPaced({ ...spec, overallRate: spec.overallRate });
  let counter = 0;
  const createdIds: string[] = [];
  const result = await autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: TIMEOUT_S,
    requests: [
      {
        method: spec.method,
        setupRequest: (request) => {
          const { path, headers, body } = requestOf(spec, ++counter);
          return { ...request, method: spec.method, path, headers, ...(body === undefined ? {} : { body }) };
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
