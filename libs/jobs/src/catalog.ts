import { z } from 'zod';
import type { AppConfig } from '@workcell/config';
import type { JobShare } from './shares.js';

/**
 * The typed job catalog: every background job the platform runs, its queue, its payload schema and its
 * deterministic id. Equal ids collapse into one job in BullMQ, so enqueueing the same logical work twice
 * (a retried request, two API instances, a restarted scheduler) never runs it twice.
 */
/**
 * `deliveries` holds only legacy v0 webhook deliveries and `mail` the invitations' e-mails, so a receiver that never
 * answers holds no other work's slots; signed v2 deliveries do not go through BullMQ at all (the worker's
 * dispatcher claims them from the database, fairly per subscription: docs/webhooks.md "Delivery").
 */
export const QUEUE_NAMES = ['maintenance', 'projects', 'webhooks', 'deliveries', 'mail', 'recurrences', 'automations'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  readonly queue: QueueName;
  readonly data: S;
  /** The same logical work gets the same id; `at` is the enqueue time, for jobs that repeat per window. */
  readonly jobId: (data: z.infer<S>, at: Date) => string;
  readonly attempts: number;
  /** Runs on this fixed interval (or the configured one), as one scheduler per job name. */
  readonly everyMs?: number | ((config: AppConfig) => number);
  /** At most so many jobs of one key run at once, across every worker (shares.ts). */
  readonly share?: JobShare<z.infer<S>>;
}

function define<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export const jobCatalog = {
  /** Deletes idempotency records past their retention (kept at least 24 h, contract 4.4 / issue 6). */
  'idempotency.purge-expired': define({
    queue: 'maintenance',
    data: z.object({}).strict(),
    // One purge per minute at most, however many producers ask.
    jobId: (_d, at) => `idempotency.purge-expired:${at.toISOString().slice(0, 16)}`,
    attempts: 5,
    everyMs: 15 * 60_000,
  }),
  /**
   * Runs one asynchronous project lifecycle operation (complete, reopen, archive, restore). The job id is the
   * operation id, so an operation is enqueued (and run) once however often it is submitted.
   */
  'projects.lifecycle': define({
    queue: 'projects',
    data: z.object({ workspaceId: z.uuid(), operationId: z.uuid() }).strict(),
    jobId: (d) => d.operationId,
    attempts: 3,
  }),
  /**
   * Materialises due task-recurrence occurrences as tasks (materialiseDueTaskRecurrences): every minute, and
   * overlapping runs are harmless (each series is one transaction under its row lock, SKIP LOCKED, and every
   * occurrence has a unique key), so a restarted worker or a second one never creates a duplicate.
   */
  'task-recurrences.materialise': define({
    queue: 'recurrences',
    data: z.object({}).strict(),
    jobId: (_d, at) => `task-recurrences.materialise.${at.getTime()}`,
    attempts: 3,
    everyMs: 60_000,
  }),
  /**
   * The webhook relay's safety-net poll (outbox publisher): fans unpublished outbox events out to deliveries and
   * marks them published. The worker also runs the relay whenever a commit
   * notifies it (LISTEN/NOTIFY), so this poll only catches what a missed notification left behind. Every
   * WEBHOOK_RELAY_POLL_MS (1 s); overlapping runs are harmless (one relay lock in the database).
   */
  'webhooks.relay': define({
    queue: 'webhooks',
    data: z.object({}).strict(),
    jobId: (_d, at) => `webhooks.relay.${at.getTime()}`,
    attempts: 1,
    everyMs: (config) => config.webhooks.relayPollMs,
  }),
  /**
   * One unsigned legacy v0 delivery of one event to one legacy webhook (no history row: the id is the pair). Its
   * attempts and their spacing are the webhook retry schedule's (enqueued with `retry: 'webhook-schedule'`). One
   * legacy webhook has at most WEBHOOK_SUBSCRIPTION_CONCURRENCY attempts in flight across all workers, like a signed
   * subscription (docs/webhooks.md "Fair share"): a receiver that never answers holds only its share of the queue.
   */
  'webhooks.deliver-legacy': define({
    queue: 'deliveries',
    data: z.object({ workspaceId: z.uuid(), legacyWebhookId: z.uuid(), eventId: z.uuid() }).strict(),
    jobId: (d) => `webhooks.deliver-legacy.${d.legacyWebhookId}.${d.eventId}`,
    attempts: 8,
    share: {
      key: (d) => `legacy-webhook:${d.workspaceId}:${d.legacyWebhookId}`,
      limit: (config) => config.webhooks.subscriptionConcurrency,
      // An attempt ends within the delivery timeout; the margin covers reading its webhook and event.
      leaseMs: (config) => config.webhooks.timeoutMs + 30_000,
      waitMs: (config) => config.webhooks.timeoutMs,
    },
  }),
  // ---- files (docs/files.md) ----
  /**
   * The file sweep: marks lapsed upload reservations expired (their pending files too, `file.expired`), removes the
   * bytes of expired files and abandoned temporary uploads, and purges old download capabilities. Every
   * FILE_SWEEP_INTERVAL_MS (1 min); overlapping runs on several workers split the work (FOR UPDATE SKIP LOCKED).
   */
  'files.sweep': define({
    queue: 'maintenance',
    data: z.object({}).strict(),
    jobId: (_d, at) => `files.sweep.${at.getTime()}`,
    attempts: 1,
    everyMs: (config) => config.files.sweepIntervalMs,
  }),
  // ---- end of files ----
  // ─── invitations ───
  /**
   * The e-mail of one invitation event (invitation.created, invitation.resent), enqueued by the relay before it marks
   * the event published. The job id is the event id: one e-mail per event however often it is enqueued
   * (sendInvitationMail also records each message it sent under that id).
   */
  'invitations.mail': define({
    queue: 'mail',
    data: z.object({ workspaceId: z.uuid(), invitationId: z.uuid(), eventId: z.uuid() }).strict(),
    jobId: (d) => `invitations.mail.${d.eventId}`,
    attempts: 8,
  }),
  // ─── end invitations ───
  // ─── exports (docs/exports-and-search.md) ───
  /** Runs one export (its row holds what to read and with whose authorization). The job id is the export id: run once. */
  'exports.run': define({
    queue: 'maintenance',
    data: z.object({ workspaceId: z.uuid(), exportId: z.uuid() }).strict(),
    jobId: (d) => `exports.run.${d.exportId}`,
    attempts: 3,
  }),
  /** Expires succeeded exports past their expiresAt and removes their bytes; every minute (overlapping runs split the work). */
  'exports.purge': define({
    queue: 'maintenance',
    data: z.object({}).strict(),
    jobId: (_d, at) => `exports.purge.${at.getTime()}`,
    attempts: 1,
    everyMs: 60_000,
  }),
  // ─── end exports ───
  // ─── automations (docs/automations.md) ───
  /**
   * Runs an automation run from `step` (its first job: step 0, enqueued by the relay after the commit that inserted
   * the run; a flow.delay's continuation: the step after it, delayed). The id is the run and step, so a job is
   * enqueued once per run and step however often it is asked for; each step is applied once whatever runs it (the
   * step's compare-and-set). Three attempts with backoff; the last failure ends the run failed.
   */
  'automations.run': define({
    queue: 'automations',
    data: z.object({ workspaceId: z.uuid(), runId: z.uuid(), step: z.number().int().min(0).max(1000) }).strict(),
    jobId: (d) => `automations.run.${d.runId}.${d.step}`,
    attempts: 3,
  }),
  /** Re-enqueues running runs whose job was lost (reviveStaleAutomationRuns); every minute, overlapping runs harmless. */
  'automations.revive': define({
    queue: 'automations',
    data: z.object({}).strict(),
    jobId: (_d, at) => `automations.revive.${at.getTime()}`,
    attempts: 1,
    everyMs: 60_000,
  }),
  // ─── end automations ───
} as const;

export type JobName = keyof typeof jobCatalog;
export type JobData<N extends JobName> = z.infer<(typeof jobCatalog)[N]['data']>;
/** Which run of its job a handler runs (1-based) and how many the job allows (the catalog's or its enqueuer's). */
export interface JobRun {
  readonly attempt: number;
  readonly attempts: number;
}
export type JobHandlers = { [N in JobName]: (data: JobData<N>, run: JobRun) => Promise<unknown> };
