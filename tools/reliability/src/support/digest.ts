import type { Database } from '@workcell/db';

/**
 * A digest of everything one workspace has in the database, table by table (row count and an md5 over the
 * rows), to prove that refused requests wrote nothing and that another workspace's credentials changed nothing.
 * Tables are found by their `workspace_id` column, so a new table is covered without a change here.
 *
 * Left out, because they change without (or regardless of) the request under test:
 * - `audit_events`: refused authentications are audited by design (docs/authentication.md "Refused authentications");
 * - `idempotency_records`: a refused request frees its key;
 * - the worker's own bookkeeping: `webhook_deliveries`, `event_sequence_counters`, `automation_runs`, `exports`,
 *   `invitation_messages` (the e-mails the worker sends for invitations created or resent earlier);
 * - columns touched by reads or the background: `last_used_at` (every authentication, and with it that row's
 *   `updated_at`), `published_at` (relay),
 *   and a webhook subscription's `status`/`revision`/`updated_at`/`disabled*` and its circuit breaker
 *   (`consecutive_failures`, `failing_since`, `breaker_until`): the delivery engine moves them on its own.
 * Outbox rows of webhook subscriptions are left out for the same reason.
 */
const SKIPPED_TABLES = new Set(['audit_events', 'idempotency_records', 'webhook_deliveries', 'event_sequence_counters', 'automation_runs', 'exports', 'invitation_messages']);
const VOLATILE_COLUMNS = ['last_used_at', 'published_at'];
const BACKGROUND_COLUMNS: Record<string, readonly string[]> = { webhook_subscriptions: ['status', 'revision', 'updated_at', 'consecutive_failures', 'failing_since', 'breaker_until'] };

export type Digest = ReadonlyMap<string, string>;

let statement: Promise<string> | undefined;

async function digestStatement(database: Database): Promise<string> {
  const tables = await database.prisma.$queryRawUnsafe<{ table_name: string; columns: string[] }[]>(
    `SELECT c.table_name, array_agg(c.column_name::text) AS columns
       FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      GROUP BY c.table_name HAVING bool_or(c.column_name = 'workspace_id') ORDER BY c.table_name`,
  );
  const parts = tables
    .filter((t) => !SKIPPED_TABLES.has(t.table_name))
    .map(({ table_name: table, columns }) => {
      const drop = [
        ...VOLATILE_COLUMNS,
        ...(BACKGROUND_COLUMNS[table] ?? []),
        ...columns.filter((c) => table === 'webhook_subscriptions' && c.startsWith('disabled')),
        // Touching `last_used_at` moves the row's `updated_at` with it (Prisma's @updatedAt).
        ...(columns.includes('last_used_at') ? ['updated_at'] : []),
      ];
      const row = `(to_jsonb(t) - ARRAY[${drop.map((c) => `'${c}'`).join(',')}]::text[])::text`;
      const where = table === 'outbox_events' ? `t.workspace_id = $1 AND t.aggregate_type NOT ILIKE '%webhook%'` : 't.workspace_id = $1';
      return `SELECT '${table}' AS name, count(*)::text || ':' || coalesce(md5(string_agg(md5(${row}), '' ORDER BY md5(${row}))), '') AS digest FROM "${table}" t WHERE ${where}`;
    });
  return parts.join('\nUNION ALL\n');
}

export async function workspaceDigest(database: Database, workspaceId: string): Promise<Digest> {
  statement ??= digestStatement(database);
  const rows = await database.prisma.$queryRawUnsafe<{ name: string; digest: string }[]>(await statement, workspaceId);
  return new Map(rows.map((r) => [r.name, r.digest]));
}

/** The tables whose digest differs, with their row counts before and after (`tags 12→13`). */
export function digestDifference(before: Digest, after: Digest): string[] {
  const changed: string[] = [];
  for (const [name, digest] of after) {
    const old = before.get(name);
    if (old !== digest) changed.push(`${name} ${old?.split(':')[0] ?? '?'}→${digest.split(':')[0]}${old?.split(':')[0] === digest.split(':')[0] ? ' (rows changed)' : ''}`);
  }
  return changed;
}
