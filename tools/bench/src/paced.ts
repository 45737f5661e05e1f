import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadResult, LoadSpec } from './load-spec.js';
import { percentile } from './ratio.js';

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function fill(value: unknown, n: number): unknown {
  if (typeof value === 'string') return value.replaceAll('{n}', String(n));
  if (Array.isArray(value)) return value.map((v) => fill(v, n));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, n)]));
  return value;
}

/** The n-th request of a run: its path, headers and body. */
export function requestOf(spec: LoadSpec, n: number): { path: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {};
  if (spec.tokens.length > 0) headers['authorization'] = `Bearer ${pick(spec.tokens)}`;
  if (spec.idempotencyKey) headers['idempotency-key'] = randomUUID();
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  return {
    path: spec.ids === undefined ? spec.path : spec.path.replace('{id}', pick(spec.ids)),
    headers,
    ...(spec.body === undefined ? {} : { body: JSON.stringify(fill(spec.body, n)) }),
  };
}

/** How long one request may take before it counts as a timeout (autocannon's `timeout` too). */
export const TIMEOUT_S = 30;

/**
 * A fixed-rate load, evenly paced: request i leaves at start + i / rate. autocannon's own fixed rate gives each
 * connection a budget per second that it spends at once, so a second's requests all leave at its start and queue in
 * the server (issue 28's thirteenth session: the request log showed 200 creates a second arriving within its first
 * ~450 ms); a stream of events at a rate arrives spread out. Latency is measured from the time a request was due, so
 * a send held back by `connections` requests in flight counts its wait (no coordinated omission).
 */
export async function runPaced(spec: LoadSpec & { overallRate: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const createdIds: string[] = [];
  let errors = 0;
  let timeouts = 0;
  let inFlight = 0;
  let freed: (() => void) | null = null;
  const sent: Promise<void>[] = [];
  const send = async (n: number, due: number) => {
    const request = requestOf(spec, n);
    try {
      const res = await fetch(`${spec.origin}${request.path}`, {
        method: spec.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: AbortSignal.timeout(TIMEOUT_S * 1000),
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - due);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const location = res.headers.get('location');
      if (spec.collectCreatedIds && res.ok && location !== null) createdIds.push(location.split('/').pop()!);
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') timeouts++;
      else errors++;
    } finally {
      inFlight--;
      freed?.();
    }
  };
  const interval = 1000 / spec.overallRate;
  const start = performance.now();
  const end = start + spec.seconds * 1000;
  for (let n = 1; ; n++) {
    const due = start + (n - 1) * interval;
    if (due >= end) break;
    const early = due - performance.now();
    if (early > 0) await sleep(early);
    if (inFlight >= spec.connections) {
      while (inFlight >= spec.connections) await new Promise<void>((resolve) => (freed = resolve));
      // As autocannon's duration: a request held back by the requests in flight until the run ended is not sent. One
      // that was only late from its timer is sent: every request due within the run leaves when nothing holds it.
      if (performance.now() >= end) break;
    }
    inFlight++;
    sent.push(send(n, due));
  }
  await Promise.all(sent);
  const seconds = (performance.now() - start) / 1000;
  const ok = Object.entries(statuses).reduce((sum, [code, count]) => (code.startsWith('2') ? sum + count : sum), 0);
  return {
    requests: sent.length,
    ok,
    non2xx: latencies.length - ok,
    errors,
    timeouts,
    seconds,
    rps: ok / seconds,
    p50: latencies.length === 0 ? 0 : percentile(latencies, 50),
    p99: latencies.length === 0 ? 0 : percentile(latencies, 99),
    statuses,
    createdIds,
  };
}
