import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { type Database, purgeExpiredIdempotencyRecords } from '@workcell/db';
import { deliverLegacyWebhook, deliverWebhook, type DeliverySink, invoke, isDomainError, type ProcedureContext, relayOutbox, runProjectLifecycleOperation } from '@workcell/domain';
import { APP_CONFIG, DATABASE, LOGGER, type Logger, Readiness } from '@workcell/http';
import { type JobHandlers, JobQueues, JobWorkers, PermanentJobFailure } from '@workcell/jobs';

/** Every job of the catalog mapped to the code that does it; the compiler rejects a missing one. */
export function jobHandlers(database: Database, config: AppConfig, queues: JobQueues): JobHandlers {
  const ctx: ProcedureContext = { database, config, now: () => new Date() };
  const retry = { attempts: config.webhooks.attempts, backoffMs: config.webhooks.retryBaseMs };
  // Deterministic job ids: handing the same delivery over twice enqueues it once.
  const sink: DeliverySink = {
    deliver: async (d) => void (await queues.enqueue('webhooks.deliver', d, new Date(), retry)),
    deliverLegacy: async (d) => void (await queues.enqueue('webhooks.deliver-legacy', d, new Date(), retry)),
  };
  return {
    'idempotency.purge-expired': async () => ({ purged: await purgeExpiredIdempotencyRecords(database, new Date()) }),
    // Failures are recorded on the operation. A transient one is rethrown for BullMQ to retry per the catalog's
    // attempts; a domain refusal (project gone, state no longer allows it) ends the job: retrying cannot help.
    'projects.lifecycle': async (data, run) =>
      invoke(runProjectLifecycleOperation, ctx, { ...data, ...run }).catch((error: unknown) => {
        throw isDomainError(error) ? new PermanentJobFailure(error.message) : error;
      }),
    'webhooks.relay': async () => relayOutbox(ctx, sink),
    // A failed attempt throws (DeliveryRetry) after recording itself, so BullMQ retries with the configured backoff.
    'webhooks.deliver': async (data, run) => invoke(deliverWebhook, ctx, { ...data, ...run }),
    'webhooks.deliver-legacy': async (data, run) => invoke(deliverLegacyWebhook, ctx, { ...data, ...run }),
  };
}

/**
 * Starts the queue workers and the periodic schedules after the application is up, and closes them on
 * shutdown before the database (onApplicationShutdown runs in reverse module order; jobs in progress finish).
 */
@Injectable()
export class QueueRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly queues: JobQueues;
  readonly workers: JobWorkers;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DATABASE) database: Database,
    @Inject(LOGGER) logger: Logger,
    @Inject(Readiness) readiness: Readiness,
  ) {
    this.queues = new JobQueues(config);
    this.workers = new JobWorkers(config, jobHandlers(database, config, this.queues), (job, error) =>
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
    await this.queues.installSchedules().catch(() => undefined);
  }

  async onApplicationShutdown() {
    await this.workers.close();
    await this.queues.close();
  }
}

@Module({ providers: [QueueRuntime], exports: [QueueRuntime] })
export class JobsModule {}
