import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (docs/observability.md lists them with their labels). One registry per process:
 * in a deployment each service is its own process, so what /metrics shows is that service's. Every label takes
 * values from a fixed set (operation ids, route templates, queue and job names, failure classes), never raw input,
 * so the series count stays bounded.
 */
export const metricsRegistry = new Registry();

collectDefaultMetrics({ register: metricsRegistry });

/** Latency buckets (seconds) shared by the request, query and delivery histograms. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by service, registry operation (or route template; "unmatched" for unknown routes), method and status class',
  labelNames: ['service', 'operation', 'method', 'status_class'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const httpRequestErrors = new Counter({
  name: 'http_request_errors_total',
  help: "HTTP error responses (4xx and 5xx) by service, operation and the error document's code",
  labelNames: ['service', 'operation', 'code'] as const,
  registers: [metricsRegistry],
});

export const dbQueryDuration = new Histogram({
  name: 'db_query_duration_seconds',
  help: 'PostgreSQL statements by outcome (ok, error)',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** What a pg pool reports about itself (pg.Pool's counters). */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

const pools = new Set<PoolStats>();

/** Counts a database pool in the pool gauges until the returned function is called (its close). */
export function observePool(pool: PoolStats): () => void {
  pools.add(pool);
  return () => void pools.delete(pool);
}

function sumPools(pick: (pool: PoolStats) => number): number {
  let sum = 0;
  for (const pool of pools) sum += pick(pool);
  return sum;
}

new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections of this process by state (idle, in_use)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    const idle = sumPools((p) => p.idleCount);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'in_use' }, sumPools((p) => p.totalCount) - idle);
  },
});

new Gauge({
  name: 'db_pool_waiting_requests',
  help: 'Callers waiting for a PostgreSQL pool connection',
  registers: [metricsRegistry],
  collect() {
    this.set(sumPools((p) => p.waitingCount));
  },
});

/** A source of queue depths: job counts by state for each queue, read on scrape. */
export type QueueDepthSource = () => Promise<ReadonlyArray<{ queue: string; counts: Readonly<Record<string, number>> }>>;

const queueSources = new Set<QueueDepthSource>();

/**
 * How long a scrape waits for the queue depths: a slow or unreachable Redis leaves the gauge at its last values
 * instead of hanging /metrics (queue_depth_scrape_failures_total counts those scrapes).
 */
export const QUEUE_DEPTH_TIMEOUT_MS = 1_000;

/** Reports queue depths on every scrape until the returned function is called. */
export function observeQueueDepth(source: QueueDepthSource): () => void {
  queueSources.add(source);
  return () => void queueSources.delete(source);
}

const queueDepthFailures = new Counter({
  name: 'queue_depth_scrape_failures_total',
  help: 'Scrapes whose queue depths Redis did not answer in time (the gauge keeps its previous values)',
  registers: [metricsRegistry],
});

new Gauge({
  name: 'queue_jobs',
  help: 'BullMQ jobs by queue and state (waiting, delayed, active, prioritized, waiting-children, failed, completed)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    for (const source of queueSources) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('queue depth timed out')), QUEUE_DEPTH_TIMEOUT_MS);
      });
      try {
        for (const { queue, counts } of await Promise.race([source(), timeout])) {
          for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
        }
      } catch {
        queueDepthFailures.inc();
      } finally {
        clearTimeout(timer);
      }
    }
  },
});

export const jobOutcomes = new Counter({
  name: 'queue_job_outcomes_total',
  help: 'Job runs by queue, job name and outcome (completed, failed: a failed run may be retried)',
  labelNames: ['queue', 'job', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'queue_job_duration_seconds',
  help: 'Job runs by queue and job name',
  labelNames: ['queue', 'job'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'webhook_delivery_duration_seconds',
  help: 'Webhook delivery attempts (the POST to the receiver) by API generation and outcome (succeeded, failed)',
  labelNames: ['generation', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const webhookDeliveryFailures = new Counter({
  name: 'webhook_delivery_failures_total',
  help: 'Failed webhook delivery attempts by API generation and failure class',
  labelNames: ['generation', 'reason'] as const,
  registers: [metricsRegistry],
});

/** The exposition text and its content type, for /metrics. */
export async function metricsExposition(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
