import { DelayedError, Job, type JobsOptions, Queue, UnrecoverableError, Worker } from 'bullmq';

/**
 * A failure that another attempt cannot fix (the work is no longer possible): the job ends failed at once
 * instead of spending its remaining attempts. Anything else thrown is retried per the catalog.
 */
export class PermanentJobFailure extends UnrecoverableError {}
import { type AppConfig, dependencyDeadline, DependencyTimeoutError, jitterDelayMs, startDependencyCall } from '@workcell/config';
import { createCluster, isClusterMode, redisOptions } from '@workcell/redis';
import type { Cluster } from 'ioredis';
import { contextFromTraceparent, currentTraceparent, inSpan, jobDuration, jobOutcomes, observeQueueDepth, SpanKind } from '@workcell/telemetry';
import { type JobData, type JobDefinition, jobCatalog, type JobHandlers, type JobName, type JobRun, QUEUE_NAMES, type QueueName } from './catalog.js';
import { type JobShare, JobShares } from './shares.js';

/**
 * What a Queue or Worker connects with. One server: options, BullMQ makes (and closes) its own connections. Redis
 * Cluster: BullMQ takes a Cluster client (it cannot build one from options), which its owner closes after the
 * Queue or Worker (`clients`); BullMQ's blocking commands need maxRetriesPerRequest null.
 */
function connection(config: AppConfig, clients: Cluster[]) {
  if (isClusterMode(config)) {
    const cluster = createCluster(config, { connectTimeout: redisOptions(config).connectTimeout, maxRetriesPerRequest: null });
    cluster.on('error', () => undefined);
    clients.push(cluster);
    return cluster;
  }
  const url = new URL(config.redis.url);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username || undefined,
    password: url.password || undefined,
    db: Number(url.pathname.slice(1) || 0),
    tls: url.protocol === 'rediss:' ? {} : undefined,
    connectTimeout: redisOptions(config).connectTimeout,
  };
}

/**
 * BullMQ keeps its own key prefix (it does not support ioredis keyPrefix): `${REDIS_PREFIX}:bull`. In Redis
 * Cluster mode its scripts touch many keys of a queue at once, so every BullMQ key carries the hash tag `{bull}`
 * and lands on one slot, as BullMQ requires (docs/scale-out.md); one server keeps the untagged prefix, so jobs
 * queued before an upgrade are not left behind under a renamed prefix.
 */
export function bullPrefix(config: AppConfig): string {
  return isClusterMode(config) ? `${config.redis.prefix}:{bull}` : `${config.redis.prefix}:bull`;
}

async function quitAll(clients: Cluster[]): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
}

const DEFAULT_OPTIONS: JobsOptions = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  // Failed jobs stay visible (a week) so a failure is inspected, never silently lost.
  removeOnFail: { age: 7 * 24 * 3600 },
  backoff: { type: 'exponential', delay: 1_000 },
};

/** The backoff type of jobs retried on the webhook retry schedule (JobQueues.enqueue, JobWorkers' backoffStrategy). */
export const WEBHOOK_SCHEDULE = 'webhook-schedule';

/**
 * The job data key carrying the enqueuing trace's W3C traceparent (present only when tracing is on and the job was
 * enqueued inside a trace), so the job's run continues that trace. Taken off before the catalog's schema reads the data.
 */
export const TRACEPARENT_KEY = '__traceparent';

/** Producer side: validated, deterministic enqueueing into the catalog's queues. */
export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly clients: Cluster[] = [];
  private unobserveDepth: (() => void) | undefined;

  constructor(private readonly config: AppConfig) {}

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: connection(this.config, this.clients), prefix: bullPrefix(this.config) });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /**
   * `retry` overrides the catalog's attempts and the first backoff delay (exponential) for this job, and with
   * `delayMs` holds its first run back that long; `'webhook-schedule'` gives it the webhook retry schedule's attempts
   * and delays (WEBHOOK_RETRY_SCHEDULE, with its jitter: the workers' backoffStrategy). Fails with
   * DependencyTimeoutError when Redis has not taken the job within DEPENDENCY_TIMEOUT_MS (or the rest of the
   * request's dependency budget): BullMQ queues commands while disconnected, so an unbounded add would hang for
   * the whole outage. The job may still land when Redis returns; its deterministic id keeps a retry from
   * enqueueing it twice.
   */
  async enqueue<N extends JobName>(name: N, data: JobData<N>, at: Date = new Date(), retry?: { attempts: number; backoffMs: number; delayMs?: number } | typeof WEBHOOK_SCHEDULE): Promise<string> {
    const definition = jobCatalog[name];
    const parsed = definition.data.parse(data) as JobData<N>;
    const jobId = (definition.jobId as (d: JobData<N>, at: Date) => string)(parsed, at);
    const scheduled = retry === WEBHOOK_SCHEDULE;
    const attempts = scheduled ? this.config.webhooks.retryScheduleMs.length + 1 : (retry?.attempts ?? definition.attempts);
    const backoff = scheduled ? { type: WEBHOOK_SCHEDULE } : retry ? { type: 'exponential', delay: retry.backoffMs } : DEFAULT_OPTIONS.backoff;
    const call = startDependencyCall(this.config.dependencyTimeoutMs);
    const ms = call.timeoutMs;
    if (ms <= 0) {
      call.end();
      throw new DependencyTimeoutError('Redis', this.config.dependencyTimeoutMs);
    }
    let cancel: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      cancel = dependencyDeadline(ms, () => reject(new DependencyTimeoutError('Redis', ms)));
    });
    try {
      const delay = !scheduled && retry?.delayMs ? { delay: retry.delayMs } : {};
      const traceparent = currentTraceparent();
      const stored = traceparent === null ? parsed : { ...parsed, [TRACEPARENT_KEY]: traceparent };
      await Promise.race([this.queue(definition.queue).add(name, stored, { ...DEFAULT_OPTIONS, jobId, attempts, backoff, ...delay }), timeout]);
    } finally {
      call.end();
      cancel?.();
    }
    return jobId;
  }

  /** Installs one scheduler per periodic job; installing again replaces, never duplicates. */
  async installSchedules(): Promise<void> {
    for (const [name, definition] of Object.entries(jobCatalog)) {
      const definedEvery: JobDefinition['everyMs'] = definition.everyMs;
      if (definedEvery === undefined) continue;
      const every = typeof definedEvery === 'function' ? definedEvery(this.config) : definedEvery;
      await this.queue(definition.queue).upsertJobScheduler(name, { every }, { name, data: {}, opts: { ...DEFAULT_OPTIONS, attempts: definition.attempts } });
    }
  }

  /** Reports every queue's job counts in the queue_jobs gauge on each scrape of /metrics (the worker's), until close(). */
  reportDepth(): void {
    this.unobserveDepth ??= observeQueueDepth(() => Promise.all(QUEUE_NAMES.map(async (queue) => ({ queue, counts: await this.queue(queue).getJobCounts() }))));
  }

  async close(): Promise<void> {
    this.unobserveDepth?.();
    this.unobserveDepth = undefined;
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    await quitAll(this.clients);
  }
}

/**
 * Jobs one worker runs at once per queue. Legacy v0 deliveries take WEBHOOK_DELIVERY_CONCURRENCY: a slot waiting on
 * a receiver answering in 50 ms carries about 20 deliveries per second.
 */
function concurrencyOf(config: AppConfig, queue: QueueName): number {
  return queue === 'deliveries' ? config.webhooks.deliveryConcurrency : 4;
}

/** The delay after a job's `attemptsMade`-th failed run on the webhook schedule (the last delay repeats past its end). */
export function webhookScheduleDelayMs(config: AppConfig, attemptsMade: number): number {
  const schedule = config.webhooks.retryScheduleMs;
  return jitterDelayMs(schedule[Math.min(Math.max(attemptsMade, 1), schedule.length) - 1]!);
}

/** How many waiting jobs a freed slot is offered to before it is left for the next to ask. */
const HAND_OVER_TRIES = 3;

/** Consumer side: one BullMQ worker per queue, dispatching each job to its typed handler. */
export class JobWorkers {
  private readonly workers: Worker[] = [];
  private readonly clients: Cluster[] = [];
  private readonly shares: JobShares;

  constructor(
    private readonly config: AppConfig,
    private readonly handlers: JobHandlers,
    private readonly onFailed: (job: Job | undefined, error: Error) => void = () => undefined,
  ) {
    this.shares = new JobShares(config);
  }

  start(queues: readonly QueueName[] = QUEUE_NAMES): void {
    for (const queue of queues) {
      const worker: Worker = new Worker(
        queue,
        async (job: Job, token?: string) => {
          const name = job.name as JobName;
          const definition: JobDefinition | undefined = jobCatalog[name];
          if (!definition) throw new Error(`no handler for job ${job.name}`);
          const { [TRACEPARENT_KEY]: traceparent, ...raw } = (job.data ?? {}) as Record<string, unknown>;
          const data: unknown = definition.data.parse(raw);
          const share = definition.share;
          if (share && !(await this.shares.acquire(share, data, job.id!))) {
            // No room in its share: back to the delayed set, without spending an attempt, until a slot is handed over.
            await job.moveToDelayed(Date.now() + jitterDelayMs(share.waitMs(this.config)), token);
            throw new DelayedError();
          }
          const attempts = job.opts.attempts ?? definition.attempts;
          const started = performance.now();
          let outcome = 'failed';
          try {
            const run = () => (this.handlers[name] as (d: unknown, run: JobRun) => Promise<unknown>)(data, { attempt: job.attemptsMade + 1, attempts });
            // A consumer span of the trace that enqueued the job; a job enqueued outside any trace starts its own, but a
            // periodic one (the relay's poll every second) is not traced: it would be a trace per run, all alike.
            const traced = typeof traceparent === 'string' || definition.everyMs === undefined;
            const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, 'workcell.job.attempt': job.attemptsMade + 1 };
            const result = traced ? await inSpan(`job ${name}`, SpanKind.CONSUMER, attributes, run, contextFromTraceparent(traceparent as string | undefined)) : await run();
            outcome = 'completed';
            return result;
          } finally {
            jobOutcomes.labels(queue, name, outcome).inc();
            jobDuration.labels(queue, name).observe((performance.now() - started) / 1000);
            if (share) await this.handOver(worker, share, data, job.id!);
          }
        },
        {
          connection: connection(this.config, this.clients),
          prefix: bullPrefix(this.config),
          concurrency: concurrencyOf(this.config, queue),
          autorun: true,
          // The delay before run n + 1 of a job on the webhook schedule: the schedule's n-th delay, with its jitter.
          settings: { backoffStrategy: (attemptsMade: number) => webhookScheduleDelayMs(this.config, attemptsMade) },
        },
      );
      worker.on('failed', (job, error) => this.onFailed(job, error));
      worker.on('error', () => undefined);
      this.workers.push(worker);
    }
  }

  /**
   * Frees the job's slot in its share and starts the job that waited longest for one (a waiting job that already
   * left the delayed set, or is gone, passes its turn on). A failure here delays that job until it asks again.
   */
  private async handOver<D>(worker: Worker, share: JobShare<D>, data: D, jobId: string): Promise<void> {
    try {
      for (let next = await this.shares.release(share, data, jobId), tries = 0; next !== null && tries < HAND_OVER_TRIES; tries += 1) {
        const waiting = await Job.fromId(worker, next);
        if (waiting && (await waiting.isDelayed())) {
          await waiting.promote().catch(() => undefined);
          return;
        }
        next = await this.shares.release(share, data, next);
      }
    } catch {
      // Redis refused: the waiting job asks again after its wait (JobShare.waitMs).
    }
  }

  get running(): boolean {
    return this.workers.length > 0 && this.workers.every((w) => w.isRunning());
  }

  /** Stops taking jobs and waits for the ones in progress to finish. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers.length = 0;
    await this.shares.close();
    await quitAll(this.clients);
  }
}
