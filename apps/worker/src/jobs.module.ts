import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { type Database, listenForOutboxEvents, type OutboxListener, purgeExpiredIdempotencyRecords } from '@workcell/db';
import {
  deliverLegacyWebhook,
  deliverWebhook,
  type DeliverySink,
  invoke,
  isDomainError,
  type ProcedureContext,
  relayOutbox,
  RelayTrigger,
  reviveStaleDeliveries,
  runProjectLifecycleOperation,
} from '@workcell/domain';
import { APP_CONFIG, DATABASE, LOGGER, type Logger, Readiness } from '@workcell/http';
import { type JobHandlers, JobQueues, JobWorkers, PermanentJobFailure } from '@workcell/jobs';

/** Where the relay hands deliveries to: delivery jobs of deterministic ids (handing one over twice enqueues it once). */
function deliverySink(config: AppConfig, queues: JobQueues): DeliverySink {
  const retry = { attempts: config.webhooks.attempts, backoffMs: config.webhooks.retryBaseMs };
  return {
    deliver: async (d) => void (await queues.enqueue('webhooks.deliver', d, new Date(), retry)),
    deliverLegacy: async (d) => void (await queues.enqueue('webhooks.deliver-legacy', d, new Date(), retry)),
  };
}

/** The relay of this worker: one run at a time, woken by commits (QueueRuntime's listener) and by the poll. */
export function relayTrigger(database: Database, config: AppConfig, queues: JobQueues): RelayTrigger {
  const ctx: ProcedureContext = { database, config, now: () => new Date() };
  const sink = deliverySink(config, queues);
  return new RelayTrigger(() => relayOutbox(ctx, sink));
}

/** Every job of the catalog mapped to the code that does it; the compiler rejects a missing one. */
export function jobHandlers(database: Database, config: AppConfig, queues: JobQueues, relay: RelayTrigger): JobHandlers {
  const ctx: ProcedureContext = { database, config, now: () => new Date() };
  const sink = deliverySink(config, queues);
  return {
    'idempotency.purge-expired': async () => ({ purged: await purgeExpiredIdempotencyRecords(database, new Date()) }),
    // Failures are recorded on the operation. A transient one is rethrown for BullMQ to retry per the catalog's
    // attempts; a domain refusal (project gone, state no longer allows it) ends the job: retrying cannot help.
    'projects.lifecycle': async (data, run) =>
      invoke(runProjectLifecycleOperation, ctx, { ...data, ...run }).catch((error: unknown) => {
        throw isDomainError(error) ? new PermanentJobFailure(error.message) : error;
      }),
    // The safety-net poll: a relay run through the same trigger (never concurrent with a woken one in this
    // process), then the repair of delivery jobs lost between a relay's commit and its enqueue.
    'webhooks.relay': async () => {
      await relay.wake();
      return { revived: await reviveStaleDeliveries(ctx, sink) };
    },
    // A failed attempt throws (DeliveryRetry) after recording itself, so BullMQ retries with the configured backoff.
    'webhooks.deliver': async (data, run) => invoke(deliverWebhook, ctx, { ...data, ...run }),
    'webhooks.deliver-legacy': async (data, run) => invoke(deliverLegacyWebhook, ctx, { ...data, ...run }),
  };
}

/**
 * Starts the queue workers, the periodic schedules and the relay's outbox listener after the application is up,
 * and closes them on shutdown before the database (onApplicationShutdown runs in reverse module order; jobs in
 * progress finish). The listener wakes the relay on every commit that appended an outbox event, and once each
 * time it (re)connects, for what was committed while it was down.
 */
@Injectable()
export class QueueRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly queues: JobQueues;
  readonly workers: JobWorkers;
  readonly relay: RelayTrigger;
  private listener: OutboxListener | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Readiness) readiness: Readiness,
  ) {
    this.queues = new JobQueues(config);
    this.relay = relayTrigger(database, config, this.queues);
    this.workers = new JobWorkers(config, jobHandlers(database, config, this.queues, this.relay), (job, error) =>
      logger.error({ jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err: error.message }, 'job failed'),
    );
    readiness.add({
      name: 'queues',
      check: async () => {
        if (!this.workers.running) throw new Error('queue workers are not running');
      },
    });
  }

  async onApplicationBootstrap() {
    this.workers.start();
    const wake = () => void this.relay.wake().catch((error: Error) => this.logger.error({ err: error.message }, 'webhook relay run failed'));
    this.listener = listenForOutboxEvents(this.config, {
      onEvent: wake,
      onListening: wake,
      onError: (error) => this.logger.warn({ err: error.message }, 'outbox listener lost; reconnecting (the relay poll covers the gap)'),
    });
    await this.queues.installSchedules().catch(() => undefined);
  }

  async onApplicationShutdown() {
    await this.listener?.close();
    await this.relay.stop();
    await this.workers.close();
    await this.queues.close();
  }
}

@Module({ providers: [QueueRuntime], exports: [QueueRuntime] })
export class JobsModule {}
