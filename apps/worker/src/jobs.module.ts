import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { type Database, listenForOutboxEvents, type OutboxListener, purgeExpiredIdempotencyRecords } from '@workcell/db';
import {
  deliverLegacyWebhook,
  deliverWebhook,
  type DeliverySink,
  FirstAttempts,
  invoke,
  isDomainError,
  type ProcedureContext,
  type QueuedDelivery,
  queuedDeliveryOptions,
  relayOutbox,
  RelayTrigger,
  reviveStaleDeliveries,
  materialiseDueTaskRecurrences,
  runProjectLifecycleOperation,
  sweepFiles,
  purgeExpiredExports,
  runExport,
  sendInvitationMail,
  type AutomationScheduler,
  runAutomation,
  reviveStaleAutomationRuns,
} from '@workcell/domain';
import { createMailer, type Mailer } from '@workcell/mail';
import { APP_CONFIG, DATABASE, LOGGER, type Logger, Readiness } from '@workcell/http';
import { type JobHandlers, JobQueues, JobWorkers, PermanentJobFailure } from '@workcell/jobs';

/** A pending signed delivery as a job of deterministic id (queuing one twice enqueues it once), from its next attempt. */
function deliveryQueue(config: AppConfig, queues: JobQueues): (delivery: QueuedDelivery) => Promise<void> {
  return async ({ workspaceId, deliveryId, attempt, delayMs }) =>
    void (await queues.enqueue('webhooks.deliver', { workspaceId, deliveryId }, new Date(), { ...queuedDeliveryOptions(config.webhooks, attempt), delayMs }));
}

/**
 * Where the relay hands deliveries to: a new signed row's first attempt runs in this process while it has room
 * (FirstAttempts), else the row is queued as attempt 1; revivals and retries are queued. Legacy v0 deliveries
 * are always jobs (DeliverySink.deliverLegacy says why).
 */
function deliverySink(config: AppConfig, queues: JobQueues, firstAttempts: FirstAttempts): DeliverySink {
  const enqueue = deliveryQueue(config, queues);
  const retry = { attempts: config.webhooks.attempts, backoffMs: config.webhooks.retryBaseMs };
  return {
    deliver: async (d) => {
      if (!firstAttempts.start(d)) await enqueue({ ...d, attempt: 1, delayMs: 0 });
    },
    enqueue,
    deliverLegacy: async (d) => void (await queues.enqueue('webhooks.deliver-legacy', d, new Date(), retry)),
    mailInvitation: async (d) => void (await queues.enqueue('invitations.mail', d)),
    startAutomationRun: async (r) => void (await queues.enqueue('automations.run', { ...r, step: 0 })),
  };
}

/** Where a run's continuations go: its job for a step, delayed (a flow.delay), with the catalog's attempts. */
function automationScheduler(queues: JobQueues): AutomationScheduler {
  return {
    resume: async (job, delayMs) => void (await queues.enqueue('automations.run', job, new Date(), { attempts: 3, backoffMs: 1_000, delayMs })),
  };
}

/** Every job of the catalog mapped to the code that does it; the compiler rejects a missing one. */
export function jobHandlers(ctx: ProcedureContext, sink: DeliverySink, relay: RelayTrigger, mailer: Mailer, automations: AutomationScheduler): JobHandlers {
  const { database, config } = ctx;
  return {
    'idempotency.purge-expired': async () => ({ purged: await purgeExpiredIdempotencyRecords(database, new Date()) }),
    // Failures are recorded on the operation. A transient one is rethrown for BullMQ to retry per the catalog's
    // attempts; a domain refusal (project gone, state no longer allows it) ends the job: retrying cannot help.
    'projects.lifecycle': async (data, run) =>
      invoke(runProjectLifecycleOperation, ctx, { ...data, ...run }).catch((error: unknown) => {
        throw isDomainError(error) ? new PermanentJobFailure(error.message) : error;
      }),
    // The safety-net poll: a relay run through the same trigger (never concurrent with a woken one in this
    // process), then the repair of deliveries lost between a relay's commit and the end of their first attempt.
    'webhooks.relay': async () => {
      await relay.wake();
      return { revived: await reviveStaleDeliveries(ctx, sink) };
    },
    // A failed attempt throws (DeliveryRetry) after recording itself, so BullMQ retries with the job's backoff. The
    // attempt's number comes from the row; the job's last run ends the delivery whatever that number is, so a
    // row is never left pending behind a job that gave up.
    'task-recurrences.materialise': async () => invoke(materialiseDueTaskRecurrences, ctx, {}),
    'webhooks.deliver': async (data, run) => invoke(deliverWebhook, ctx, { ...data, attempts: config.webhooks.attempts, lastRun: run.attempt >= run.attempts }),
    'webhooks.deliver-legacy': async (data, run) => invoke(deliverLegacyWebhook, ctx, { ...data, ...run }),
    // ---- files ----
    'files.sweep': async () => sweepFiles(ctx),
    // ---- end of files ----
    // ─── invitations ─── A failed send throws and is retried per the catalog; nothing was recorded for it.
    'invitations.mail': async (data) => ({ outcome: await sendInvitationMail(ctx, mailer, data) }),
    // ─── exports ─── A transient failure is rethrown (and retried) until the last attempt, which marks the export failed.
    'exports.run': async (data, run) => invoke(runExport, ctx, { ...data, ...run }),
    'exports.purge': async () => purgeExpiredExports(ctx),
    // ─── automations ─── A transient failure is rethrown (and retried) until the last attempt, which ends the run failed.
    'automations.run': async (data, run) => runAutomation(ctx, automations, data, run),
    'automations.revive': async () => ({ revived: await reviveStaleAutomationRuns(ctx, automations) }),
  };
}

/**
 * Starts the queue workers, the periodic schedules and the relay's outbox listener after the application is up,
 * and closes them and the in-process first attempts on shutdown before the database (onApplicationShutdown runs
 * in reverse module order; attempts and jobs in progress finish). The listener wakes the relay on every commit
 * that appended an outbox event, and once each time it (re)connects, for what was committed while it was down.
 */
@Injectable()
export class QueueRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly queues: JobQueues;
  readonly workers: JobWorkers;
  readonly relay: RelayTrigger;
  /** The in-process first attempts of new signed deliveries. */
  readonly firstAttempts: FirstAttempts;
  readonly sink: DeliverySink;
  /** Outgoing mail (MAIL_DRIVER): the invitations' e-mails. */
  readonly mailer: Mailer;
  private listener: OutboxListener | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Readiness) readiness: Readiness,
  ) {
    const ctx: ProcedureContext = { database, config, now: () => new Date() };
    this.queues = new JobQueues(config);
    this.firstAttempts = new FirstAttempts(ctx, deliveryQueue(config, this.queues), (error, d) =>
      logger.error({ deliveryId: d.deliveryId, err: error.message }, 'webhook first attempt failed; the relay poll revives the delivery'),
    );
    this.sink = deliverySink(config, this.queues, this.firstAttempts);
    // One relay run at a time in this process, woken by commits (the listener below) and by the poll.
    this.relay = new RelayTrigger(() => relayOutbox(ctx, this.sink));
    this.mailer = createMailer(config);
    this.workers = new JobWorkers(config, jobHandlers(ctx, this.sink, this.relay, this.mailer, automationScheduler(this.queues)), (job, error) =>
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
    this.queues.reportDepth();
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
    // First attempts in flight end (each within the webhook timeout) and queue their retries while the queues
    // are still open; one cut short by a harder stop leaves its row pending for the relay's revival.
    await this.firstAttempts.close();
    await this.workers.close();
    await this.queues.close();
    await this.mailer.close();
  }
}

@Module({ providers: [QueueRuntime], exports: [QueueRuntime] })
export class JobsModule {}
