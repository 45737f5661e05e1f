import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { unarchivedPage } from './keyset.js';
import { revisionedColumns, setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import { type CasOutcome } from './transactions.js';

/**
 * Automations (issue 14, docs/automations.md). Every query is scoped by the workspace id. A definition's draft
 * (trigger, steps) changes by compare-and-set on its revision; publishing inserts an immutable version row in the
 * statement that bumps the definition's revision and published version (one statement: both or neither). Versions
 * are never updated (no function here does, and a SQL trigger refuses it). A run is inserted once per
 * (definition, event) (ON CONFLICT DO NOTHING); its cursor `steps_completed` and its status only move by
 * conditional UPDATEs, so a retried or duplicated job never applies a step twice nor revives an ended run.
 */

export type AutomationRunStatusValue = 'running' | 'succeeded' | 'failed' | 'aborted';

const definitionSelect = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  trigger: true,
  steps: true,
  publishedVersion: true,
  ownerCredentialId: true,
  ...revisionedColumns,
} as const satisfies Prisma.AutomationDefinitionSelect;

/** `trigger` and `steps`: the draft as stored (jsonb), read as unknown. */
export type AutomationDefinitionRecord = Readonly<Omit<Prisma.AutomationDefinitionGetPayload<{ select: typeof definitionSelect }>, 'trigger' | 'steps'> & { trigger: unknown; steps: unknown }>;

export async function findAutomationDefinition(client: Db, workspaceId: string, id: string): Promise<AutomationDefinitionRecord | null> {
  return client.prisma.automationDefinition.findFirst({ where: { workspaceId, id }, select: definitionSelect });
}

/** One keyset page of the workspace's unarchived definitions in id order; `published`: only those with (or without) a published version. */
export async function listAutomationDefinitionsPage(
  client: Db,
  workspaceId: string,
  filter: { published?: boolean | undefined },
  afterId: string | undefined,
  take: number,
): Promise<AutomationDefinitionRecord[]> {
  const published = filter.published === undefined ? {} : { publishedVersion: filter.published ? { not: null } : null };
  return client.prisma.automationDefinition.findMany({ ...unarchivedPage(workspaceId, published, afterId, take), select: definitionSelect });
}

export interface AutomationDraft {
  readonly name?: string;
  readonly description?: string | null;
  readonly trigger?: object;
  readonly steps?: readonly object[];
}

export async function insertAutomationDefinition(tx: Db, workspaceId: string, draft: Required<AutomationDraft>): Promise<AutomationDefinitionRecord> {
  return tx.prisma.automationDefinition.create({
    data: { workspaceId, name: draft.name, description: draft.description, trigger: draft.trigger as Prisma.InputJsonObject, steps: draft.steps as Prisma.InputJsonArray },
    select: definitionSelect,
  });
}

/** Compare-and-set of the draft: one `UPDATE … WHERE revision = $expected` (the published versions are untouched). */
export async function updateAutomationDefinitionIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, draft: AutomationDraft): Promise<CasOutcome> {
  const data = {
    ...(draft.name === undefined ? {} : { name: draft.name }),
    ...(draft.description === undefined ? {} : { description: draft.description }),
    ...(draft.trigger === undefined ? {} : { trigger: draft.trigger as Prisma.InputJsonObject }),
    ...(draft.steps === undefined ? {} : { steps: draft.steps as Prisma.InputJsonArray }),
  };
  return updateIfRevision(tx.prisma.automationDefinition, workspaceId, id, expectedRevision, data);
}

export async function setAutomationDefinitionArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.automationDefinition, workspaceId, id, archivedAt);
}

export interface AutomationVersionRecord {
  readonly id: string;
  readonly definitionId: string;
  readonly number: number;
  readonly body: { readonly trigger: unknown; readonly steps: unknown };
  readonly note: string | null;
  readonly publishedBy: string | null;
  readonly publishedAt: Date;
}

const versionColumns = Prisma.sql`id::text AS id, definition_id::text AS "definitionId", version AS number, body, note, created_by_credential_id::text AS "publishedBy", created_at AS "publishedAt"`;

/**
 * Publishes the draft as version `published_version + 1` if the definition is unarchived and still at
 * `expectedRevision`: one statement bumps the definition (revision, published version, owner) and inserts the
 * version from the row it updated, so two publishes at one revision make one version and the other inserts
 * nothing. Null when nothing was published (the caller finds out why).
 */
export async function publishAutomationDefinition(
  tx: Db,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  publisher: { credentialId: string; note: string | null },
  now: Date,
): Promise<AutomationVersionRecord | null> {
  const rows = await tx.rows<AutomationVersionRecord>(Prisma.sql`WITH published AS (
        UPDATE automation_definitions SET published_version = COALESCE(published_version, 0) + 1, owner_credential_id = ${publisher.credentialId}::uuid,
               revision = revision + 1, updated_at = ${now}::timestamptz
         WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND revision = ${expectedRevision} AND archived_at IS NULL
        RETURNING published_version, trigger, steps)
      INSERT INTO automation_versions (workspace_id, definition_id, version, body, note, created_by_credential_id, created_at)
      SELECT ${workspaceId}::uuid, ${id}::uuid, published_version, jsonb_build_object('trigger', trigger, 'steps', steps), ${publisher.note}, ${publisher.credentialId}::uuid, ${now}::timestamptz FROM published
      RETURNING ${versionColumns}`);
  return rows[0] ?? null;
}

export async function findAutomationVersion(client: Db, workspaceId: string, definitionId: string, number: number): Promise<AutomationVersionRecord | null> {
  const rows = await client.rows<AutomationVersionRecord>(
    Prisma.sql`SELECT ${versionColumns} FROM automation_versions WHERE workspace_id = ${workspaceId}::uuid AND definition_id = ${definitionId}::uuid AND version = ${number}`,
  );
  return rows[0] ?? null;
}

/** One keyset page of a definition's versions in id order (publication order: ids are UUIDv7). */
export async function listAutomationVersionsPage(client: Db, workspaceId: string, definitionId: string, afterId: string | undefined, take: number): Promise<AutomationVersionRecord[]> {
  return client.rows<AutomationVersionRecord>(Prisma.sql`SELECT ${versionColumns} FROM automation_versions WHERE workspace_id = ${workspaceId}::uuid AND definition_id = ${definitionId}::uuid
      ${afterId === undefined ? Prisma.empty : Prisma.sql`AND id > ${afterId}::uuid`} ORDER BY id LIMIT ${take}`);
}

export interface AutomationRunRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly definitionId: string;
  readonly versionNumber: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: AutomationRunStatusValue;
  readonly stepsCompleted: number;
  readonly depth: number;
  readonly resumeAt: Date | null;
  readonly error: { code: string; message: string } | null;
  readonly startedAt: Date;
  readonly endedAt: Date | null;
  readonly abortedByCredentialId: string | null;
  readonly updatedAt: Date;
}

const runColumns = Prisma.sql`id::text AS id, workspace_id::text AS "workspaceId", definition_id::text AS "definitionId", version_number AS "versionNumber",
  event_id::text AS "eventId", event_type AS "eventType", status::text AS status, steps_completed AS "stepsCompleted", depth, resume_at AS "resumeAt", error,
  started_at AS "startedAt", finished_at AS "endedAt", aborted_by_credential_id::text AS "abortedByCredentialId", updated_at AS "updatedAt"`;

export async function findAutomationRun(client: Db, workspaceId: string, id: string): Promise<AutomationRunRecord | null> {
  const rows = await client.rows<AutomationRunRecord>(Prisma.sql`SELECT ${runColumns} FROM automation_runs WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid`);
  return rows[0] ?? null;
}

/** The run locked for the rest of the transaction (a step's transaction, an abort): they take turns on the row. */
export async function lockAutomationRun(tx: Db, workspaceId: string, id: string): Promise<AutomationRunRecord | null> {
  const rows = await tx.rows<AutomationRunRecord>(Prisma.sql`SELECT ${runColumns} FROM automation_runs WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid FOR UPDATE`);
  return rows[0] ?? null;
}

/** One keyset page of the workspace's runs in id order (start order), optionally of one definition and/or status. */
export async function listAutomationRunsPage(
  client: Db,
  workspaceId: string,
  filter: { definitionId?: string | undefined; status?: AutomationRunStatusValue | undefined },
  afterId: string | undefined,
  take: number,
): Promise<AutomationRunRecord[]> {
  return client.rows<AutomationRunRecord>(Prisma.sql`SELECT ${runColumns} FROM automation_runs WHERE workspace_id = ${workspaceId}::uuid
      ${filter.definitionId === undefined ? Prisma.empty : Prisma.sql`AND definition_id = ${filter.definitionId}::uuid`}
      ${filter.status === undefined ? Prisma.empty : Prisma.sql`AND status = ${filter.status}::automation_run_status`}
      ${afterId === undefined ? Prisma.empty : Prisma.sql`AND id > ${afterId}::uuid`} ORDER BY id LIMIT ${take}`);
}

/** A published, unarchived definition as the relay matches events against it (its published version's trigger). */
export interface TriggerableAutomation {
  readonly workspaceId: string;
  readonly definitionId: string;
  readonly versionId: string;
  readonly versionNumber: number;
  readonly trigger: unknown;
}

/** The published, unarchived definitions of these workspaces with the trigger of their latest version. */
export async function triggerableAutomationsOf(client: Db, workspaceIds: readonly string[]): Promise<TriggerableAutomation[]> {
  if (workspaceIds.length === 0) return [];
  return client.rows<TriggerableAutomation>(Prisma.sql`SELECT d.workspace_id::text AS "workspaceId", d.id::text AS "definitionId", v.id::text AS "versionId", v.version AS "versionNumber", v.body -> 'trigger' AS trigger
      FROM automation_definitions d
      JOIN automation_versions v ON v.workspace_id = d.workspace_id AND v.definition_id = d.id AND v.version = d.published_version
     WHERE d.workspace_id = ANY(${[...workspaceIds]}::uuid[]) AND d.archived_at IS NULL`);
}

export interface NewAutomationRun {
  readonly workspaceId: string;
  readonly definitionId: string;
  readonly versionId: string;
  readonly versionNumber: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly depth: number;
  /** A run refused before it started (loop_bound) is inserted failed with its error. */
  readonly error: { code: string; message: string } | null;
}

/**
 * Inserts the runs whose (definition, event) has none yet, `running` (or `failed` with their error) from `now`;
 * returns the ids of the running ones it inserted. A relay run repeated after a rollback inserts nothing twice.
 */
export async function insertAutomationRunsOnce(client: Db, runs: readonly NewAutomationRun[], now: Date): Promise<{ workspaceId: string; id: string }[]> {
  if (runs.length === 0) return [];
  const values = runs.map(
    (r) => Prisma.sql`(${r.workspaceId}::uuid, ${r.definitionId}::uuid, ${r.versionId}::uuid, ${r.versionNumber}::int, ${r.eventId}::uuid, ${r.eventType}, ${r.depth}::int,
      ${r.error === null ? 'running' : 'failed'}::automation_run_status, ${r.error === null ? null : JSON.stringify(r.error)}::jsonb, ${now}::timestamptz, ${r.error === null ? null : now}::timestamptz)`,
  );
  return client
    .rows<{ workspaceId: string; id: string }>(
      Prisma.sql`INSERT INTO automation_runs (workspace_id, definition_id, version_id, version_number, event_id, event_type, depth, status, error, started_at, finished_at)
      VALUES ${Prisma.join(values)}
      ON CONFLICT (workspace_id, definition_id, event_id) DO NOTHING
      RETURNING workspace_id::text AS "workspaceId", id::text AS id, status::text AS status`,
    )
    .then((rows) => (rows as { workspaceId: string; id: string; status: string }[]).filter((r) => r.status === 'running').map(({ workspaceId, id }) => ({ workspaceId, id })));
}

/**
 * Moves a running run's cursor from `from` to `from + 1` (and sets or clears its resume time): the compare-and-set
 * that makes a step exactly-once, in the step's transaction. False when the run is no longer running or another
 * worker moved the cursor first (the step's transaction must then roll back).
 */
export async function advanceAutomationRun(tx: Db, workspaceId: string, id: string, from: number, resumeAt: Date | null, now: Date): Promise<boolean> {
  const rows = await tx.rows<{ id: string }>(Prisma.sql`UPDATE automation_runs SET steps_completed = ${from + 1}::int, resume_at = ${resumeAt}::timestamptz, updated_at = ${now}::timestamptz
      WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND status = 'running' AND steps_completed = ${from}::int RETURNING id::text AS id`);
  return rows.length === 1;
}

/** Ends a running run (succeeded, failed with its error, or aborted by a credential); null when it was not running. */
export async function endAutomationRun(
  tx: Db,
  workspaceId: string,
  id: string,
  end: { status: Exclude<AutomationRunStatusValue, 'running'>; error: { code: string; message: string } | null; abortedByCredentialId?: string },
  now: Date,
): Promise<AutomationRunRecord | null> {
  const rows =
    await tx.rows<AutomationRunRecord>(Prisma.sql`UPDATE automation_runs SET status = ${end.status}::automation_run_status, error = ${end.error === null ? null : JSON.stringify(end.error)}::jsonb,
        finished_at = ${now}::timestamptz, updated_at = ${now}::timestamptz, resume_at = NULL,
        aborted_at = ${end.status === 'aborted' ? now : null}::timestamptz, aborted_by_credential_id = ${end.abortedByCredentialId ?? null}::uuid
      WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND status = 'running' RETURNING ${runColumns}`);
  return rows[0] ?? null;
}

/**
 * Running runs untouched since `before` that are not waiting out a delay (or whose delay ended before `before`):
 * their job may have been lost (a crash between the relay's commit and the enqueue, or between a delay step's
 * commit and its continuation's enqueue). The caller enqueues them again under their deterministic job id.
 */
export async function staleAutomationRuns(client: Db, before: Date, take: number): Promise<{ workspaceId: string; id: string; stepsCompleted: number }[]> {
  return client.rows(Prisma.sql`SELECT workspace_id::text AS "workspaceId", id::text AS id, steps_completed AS "stepsCompleted" FROM automation_runs
      WHERE status = 'running' AND updated_at < ${before}::timestamptz AND (resume_at IS NULL OR resume_at < ${before}::timestamptz)
      ORDER BY updated_at LIMIT ${take}`);
}
