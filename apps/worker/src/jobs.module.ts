import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { type Database, purgeExpiredIdempotencyRecords } from '@workcell/db';
import { invoke, type ProcedureContext, runProjectLifecycleOperation } from '@workcell/domain';
import { APP_CONFIG, DATABASE, LOGGER, type Logger, Readiness } from '@workcell/http';
import { type JobHandlers, JobQueues, JobWorkers } from '@workcell/jobs';

/** Every job of the catalog mapped to the code that does it; the compiler rejects a missing one. */
export function jobHandlers(database: Database, config: AppConfig): JobHandlers {
  const ctx: ProcedureContext = { database, config, now: () => new Date() };
  return {
    'idempotency.purge-expired': async () => ({ purged: await purgeExpiredIdempotencyRecords(database, new Date()) }),
    // Failures are recorded on the operation; the rethrown error lets BullMQ retry per the catalog's attempts.
    'projects.lifecycle': async (data, run) => invoke(runProjectLifecycleOperation, ctx, { ...data, ...run }),
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
    this.workers = new JobWorkers(config, jobHandlers(database, config), (job, error) =>
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
