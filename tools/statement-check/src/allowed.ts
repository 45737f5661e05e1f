/**
 * Statements the e2e suite sends that are not routed to one workspace, each on purpose: the worker's sweeps across
 * workspaces. Citus runs them as multi-shard statements, except that it refuses `FOR UPDATE` across shards, so
 * each names the rework a distributed deployment needs (docs/scale-out.md lists them). An entry is keyed by the
 * statement's fingerprint (libpg-query: the same statement whatever its literals and layout).
 */
export interface AllowedStatement {
  readonly fingerprint: string;
  /** Where it is sent from. */
  readonly source: string;
  /** What it does, and why it spans workspaces. */
  readonly why: string;
  /** What a Citus deployment does instead. */
  readonly rework: string;
}

/** Shared by the claims that lock rows of every workspace. */
const PER_WORKSPACE_CLAIM =
  'Citus refuses FOR UPDATE in a statement over several shards. The claim becomes two steps: a multi-shard read without a lock finds the workspaces with due rows (SELECT DISTINCT workspace_id \u2026 LIMIT n), then the claim runs per workspace with `workspace_id = $1` added: a router statement that keeps FOR UPDATE SKIP LOCKED, so several workers still split the work.';
/** Shared by the purges. */
const PARALLEL_PURGE =
  'None needed: Citus runs a DELETE over several shards on every shard in parallel, in one distributed transaction. At scale, a purge per shard (run_command_on_shards) keeps each transaction small.';

export const ALLOWED_STATEMENTS: readonly AllowedStatement[] = [
  {
    fingerprint: 'e00f3c9d4b523894',
    source: 'libs/db/src/sessions.ts sessionMemberships',
    why: "A signed-in person's account page and session list the workspaces that person is an active member of: the memberships of one user across workspaces (no lock).",
    rework:
      'None needed: a read over every shard without a lock is a plain multi-shard SELECT; at scale a per-user index of memberships (a reference table of user → workspace ids) makes it a router read.',
  },
  {
    fingerprint: '540963172e9086c6',
    source: 'libs/db/src/sessions.ts sessionMemberships (workspace names)',
    why: "The names of the workspaces a person with several memberships belongs to (Prisma's read of the relation, `id IN (…)`), for their account page and when an invitation's acceptance decides whether to start a session.",
    rework: 'None needed: a read without a lock; Citus prunes `id IN (…)` on the distribution column to the shards of the listed workspaces.',
  },
  {
    fingerprint: 'a976ecb074c26b60',
    source: 'libs/db/src/webhook-delivery.ts lockUnpublishedEvents',
    why: 'The webhook relay claims the oldest unpublished outbox events of every workspace (FOR UPDATE SKIP LOCKED under the relay lock).',
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: 'b6f8631f26cd468b',
    source: 'libs/db/src/webhook-delivery.ts markEventsPublished',
    why: 'The relay marks the batch it fanned out published, for events of several workspaces at once (UPDATE \u2026 FROM unnest of the pairs).',
    rework:
      "One UPDATE per workspace of the batch (`workspace_id = $1 AND id = ANY($2)`), router statements in the relay's transaction; with the per-workspace claim above a batch is one workspace anyway.",
  },
  {
    fingerprint: '3208e675848cb682',
    source: 'libs/db/src/webhook-delivery.ts activeWebhooksOf',
    why: 'The relay reads the active subscriptions of the workspaces in its batch (`workspace_id = ANY($1)`).',
    rework: 'None needed: Citus prunes `= ANY(array)` on the distribution column to the shards of the listed workspaces; with the per-workspace claim the array has one element.',
  },
  {
    fingerprint: '1cc5fa34b41bf3cd',
    source: 'libs/db/src/webhook-delivery.ts activeLegacyWebhooksOf',
    why: 'The relay reads the legacy v0 webhooks of the workspaces in its batch (`workspace_id = ANY($1)`).',
    rework: 'None needed: pruned like activeWebhooksOf; one element with the per-workspace claim.',
  },
  {
    fingerprint: '9ccef184b7ea1758',
    source: 'libs/db/src/webhook-delivery.ts insertPendingDeliveries',
    why: 'The relay inserts one delivery row per (event, subscription) of its batch from arrays (INSERT \u2026 SELECT FROM unnest \u2026 ON CONFLICT DO NOTHING).',
    rework: 'None needed: Citus runs INSERT \u2026 SELECT from a function through the coordinator and routes each row by its workspace_id; per workspace with the per-workspace claim.',
  },
  {
    fingerprint: '7ddc3f9453987133',
    source: 'libs/db/src/webhook-delivery.ts claimDueDeliveries',
    why: "The delivery dispatcher's claim, first statement: the active subscriptions of every workspace with due deliveries, locked FOR NO KEY UPDATE SKIP LOCKED until the claim's transaction ends.",
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: '6d13a6127dd81e6e',
    source: 'libs/db/src/webhook-delivery.ts claimFrom',
    why: "The delivery dispatcher's claim, second statement: of the subscriptions it locked, their oldest due rows up to each one's room (its leases counted in this statement's snapshot), FOR NO KEY UPDATE SKIP LOCKED, leased.",
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: '673036bedc660bde',
    source: 'libs/db/src/automations.ts triggerableAutomationsOf',
    why: "The relay reads the published, unarchived automation definitions (with their version's trigger) of the workspaces in its batch (`workspace_id = ANY($1)`).",
    rework: 'None needed: pruned like activeWebhooksOf (the join is on workspace_id, co-located); one element with the per-workspace claim.',
  },
  {
    fingerprint: 'a93149c488891c4d',
    source: 'libs/db/src/automations.ts staleAutomationRuns',
    why: 'The automations revival finds running runs of any workspace untouched past their time, whose job may have been lost (no lock).',
    rework: 'None needed: a read over every shard without a lock is a plain multi-shard SELECT (its ORDER BY … LIMIT is merged on the coordinator).',
  },
  {
    fingerprint: '13272b0974af72d0',
    source: 'libs/db/src/task-recurrences.ts dueTaskRecurrences',
    why: 'The recurrence worker claims due series of every workspace (FOR UPDATE SKIP LOCKED).',
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: '4b2daea39e9775df',
    source: 'libs/db/src/files.ts lockLapsedReservations',
    why: 'The file sweep claims lapsed upload reservations of every workspace (FOR UPDATE SKIP LOCKED).',
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: '5ccc52bd8f99b8e9',
    source: 'libs/db/src/files.ts clearExpiredFileBytes',
    why: 'The file sweep claims expired files whose bytes are still stored, in every workspace (FOR UPDATE SKIP LOCKED).',
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: 'eb1d0603ae9c4c1b',
    source: 'libs/db/src/files.ts purgeExpiredDownloadIntents',
    why: 'The file sweep deletes expired download capabilities of every workspace.',
    rework: PARALLEL_PURGE,
  },
  {
    fingerprint: 'ea2e73089f9b86c6',
    source: 'libs/db/src/exports.ts expireExports',
    why: 'The export purge claims expired export results of every workspace (FOR UPDATE SKIP LOCKED).',
    rework: PER_WORKSPACE_CLAIM,
  },
  {
    fingerprint: '1ef68657d1287245',
    source: 'libs/db/src/idempotency.ts purgeExpiredIdempotencyRecords',
    why: 'The idempotency purge deletes records past their retention in every workspace.',
    rework: PARALLEL_PURGE,
  },
];
