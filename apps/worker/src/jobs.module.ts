import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { type Database, listenForOutboxEvents, type OutboxListener, purgeExpiredIdempotencyRecords } from '@workcell/db';
import {
  deliverLegacyWebhook,
  DeliveryDispatcher,
  type DeliverySink,
  invoke,
  isDomainError,
  type ProcedureContext,
  relayOutbox,
  RelayTrigger,
  materialiseDueTaskRecurrences,
  runProjectLifecycleOperation,
  sweepFiles,
  purgeExpiredExports,
  runExport,
  sendInvitationMail,
  sendNextSignInMail,
  type AutomationScheduler,
  runAutomation,
  reviveStaleAutomationRuns,
} from '@workcell/domain';
import { createMailer, type Mailer } from '@workcell/mail';
import { APP_CONFIG, DATABASE, LOGGER, type Logger, Readiness } from '@workcell/http';
import { type JobData, type JobHandlers, JobQueues, JobWorkers, PermanentJobFailure, WEBHOOK_SCHEDULE } from '@workcell/jobs';

/**
 * Where the relay hands deliveries to: new signed rows wake the dispatcher (it claims them from the database);
 * legacy v0 deliveries are jobs on the webhook retry schedule (DeliverySink.deliverLegacy says why); the work an
 * event starts (an invitation's e-mail, an export, a project lifecycle operation) is the catalog's job of that name.
 */
function deliverySink(queues: JobQueues, dispatcher: DeliveryDispatcher): DeliverySink {
  return {
    dispatch: () => void dispatcher.wake(),
    deliverLegacy: async (d) => void (await queues.enqueue('webhooks.deliver-legacy', d, new Date(), WEBHOOK_SCHEDULE)),
    start: async ({ job, data }) => void (await queues.enqueue(job, data as JobData<typeof job>)),
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
export function jobHandlers(ctx: ProcedureContext, relay: RelayTrigger, mailer: Mailer, automations: AutomationScheduler): JobHandlers {
  const { database } = ctx;
  return {
    'idempotency.purge-expired': async () => ({ purged: await purgeExpiredIdempotencyRecords(database, new Date()) }),
    // Failures are recorded on the operation. A transient one is rethrown for BullMQ to retry per the catalog's
    // attempts; a domain refusal (project gone, state no longer allows it) ends the job: retrying cannot help.
    'projects.lifecycle': async (data, run) =>
      invoke(runProjectLifecycleOperation, ctx, { ...data, ...run }).catch((error: unknown) => {
        throw isDomainError(error) ? new PermanentJobFailure(error.message) : error;
      }),
    // The safety-net poll: a relay run through the same trigger (never concurrent with a woken one in this process).
    'webhooks.relay': async () => relay.wake(),
    'task-recurrences.materialise': async () => invoke(materialiseDueTaskRecurrences, ctx, {}),
    // A failed attempt throws (DeliveryRetry), so BullMQ retries it on the webhook schedule until its last run.
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
 * Starts the queue workers, the delivery dispatcher, the periodic schedules and the relay's outbox listener after
 * the application is up, and closes them on shutdown before the database (onApplicationShutdown runs
 * in reverse module order; attempts and jobs in progress finish). The listener wakes the relay on every commit
 * that appended an outbox event, and once each time it (re)connects, for what was committed while it was down.
 */
@Injectable()
export class QueueRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly queues: JobQueues;
  readonly workers: JobWorkers;
  readonly relay: RelayTrigger;
  /** Claims and attempts signed deliveries, fairly per subscription. */
  readonly dispatcher: DeliveryDispatcher;
  readonly sink: DeliverySink;
  /** Outgoing mail (MAIL_DRIVER): the invitations' and the sign-in links' e-mails. */
  readonly mailer: Mailer;
  /**
   * Mails due sign-in links, one run at a time until none is due. The database is their queue (not BullMQ): a link
   * POST /sign-in committed is mailed even if Redis was down meanwhile (docs/authentication.md "Signing in").
   */
  readonly signInMail: RelayTrigger;
  private signInMailPoll: NodeJS.Timeout | undefined;
  private listener: OutboxListener | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Readiness) readiness: Readiness,
  ) {
    const ctx: ProcedureContext = { database, config, now: () => new Date() };
    this.queues = new JobQueues(config);
    this.dispatcher = new DeliveryDispatcher(ctx, (error, deliveryId) =>
      logger.error({ deliveryId, err: error.message }, 'webhook delivery round failed; the delivery stays due and is claimed again'),
    );
    this.sink = deliverySink(this.queues, this.dispatcher);
    // One relay run at a time in this process, woken by commits (the listener below) and by the poll.
    this.relay = new RelayTrigger(() => relayOutbox(ctx, this.sink));
    this.mailer = createMailer(config);
    this.signInMail = new RelayTrigger(async () => {
      const sent = (await sendNextSignInMail(ctx, this.mailer)) === 'sent';
      return { events: 0, deliveries: 0, busy: false, full: sent };
    });
    this.workers = new JobWorkers(config, jobHandlers(ctx, this.relay, this.mailer, automationScheduler(this.queues)), (job, error) =>
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
    this.dispatcher.start();
    // Polled like the webhook relay: a failed send is due again after its retry delay, a new link at once.
    const mailSignInLinks = () =>
      void this.signInMail.wake().catch((error: Error) => this.logger.error({ err: error.message }, 'sending a sign-in e-mail failed; it is retried until the link expires'));
    this.signInMailPoll = setInterval(mailSignInLinks, this.config.webhooks.relayPollMs);
    this.signInMailPoll.unref();
    mailSignInLinks();
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
    clearInterval(this.signInMailPoll);
    await this.signInMail.stop();
    // Attempts in flight end (each within the webhook timeout) and record themselves; one cut short by a harder
    // stop stays leased and is claimed again when its lease ends.
    await this.dispatcher.close();
    await this.workers.close();
    await this.queues.close();
    await this.mailer.close();
  }
}

@Module({ providers: [QueueRuntime], exports: [QueueRuntime] })
export class JobsModule {}
