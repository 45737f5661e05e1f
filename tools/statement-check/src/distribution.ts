import type { Distribution } from './analyse.js';

/**
 * The Citus distribution plan (docs/scale-out.md), from the catalogue: every table with a `workspace_id` is
 * distributed by it and co-located with `workspaces` (distributed by its `id`), so a workspace's rows of every table
 * live on one node and joins between them stay local; `credential_lookups` is the exception; tables without a
 * workspace are reference tables, copied to every node.
 */
export interface DistributionPlan {
  readonly distributed: Distribution;
  /** Tables distributed by something else than the workspace: not co-located with it. */
  readonly separate: ReadonlyMap<string, { readonly column: string; readonly why: string }>;
  readonly reference: readonly string[];
}

/** Tables whose distribution is not their workspace_id, and why. */
const SEPARATE: ReadonlyMap<string, { column: string; why: string }> = new Map([
  [
    'credential_lookups',
    {
      column: 'verifier',
      why: 'authentication finds a token by its verifier before it knows the workspace, so the lookup is distributed by the verifier (one shard per lookup) and not co-located',
    },
  ],
]);

/**
 * Constraints a Citus deployment drops or changes, because Citus requires a unique index to include the distribution
 * column and a foreign key between distributed tables to be between co-located tables on that column.
 */
export const SCHEMA_REWORK: ReadonlyMap<string, string> = new Map([
  [
    'credential_lookups_workspace_id_token_type_token_id_key',
    'unique per token across workspaces and verifiers: dropped under Citus (the verifier, unique itself, already names one token; the token rows are unique in their own tables)',
  ],
  [
    'credential_lookups_workspace_id_fkey',
    'a foreign key between tables that are not co-located: dropped under Citus; a workspace is never deleted while its tokens exist (workspaces are archived, not deleted)',
  ],
]);

/** Tables the migrations own rather than the platform: left out of the plan. */
const TOOLING = new Set(['schema_migrations']);

export function distributionPlan(catalogue: readonly { table: string; hasWorkspaceId: boolean }[]): DistributionPlan {
  const distributed = new Map<string, string>();
  const reference: string[] = [];
  for (const { table, hasWorkspaceId } of catalogue) {
    if (TOOLING.has(table)) continue;
    const separate = SEPARATE.get(table);
    if (separate) distributed.set(table, separate.column);
    else if (table === 'workspaces') distributed.set(table, 'id');
    else if (hasWorkspaceId) distributed.set(table, 'workspace_id');
    else reference.push(table);
  }
  return { distributed, separate: SEPARATE, reference: reference.sort() };
}

/** The Citus DDL of the plan, as docs/scale-out.md carries it (a test keeps the two equal). */
export function citusDdl(plan: DistributionPlan): string {
  const lines = [`SELECT create_distributed_table('workspaces', 'id');`];
  for (const [table, column] of [...plan.distributed].sort(([a], [b]) => a.localeCompare(b))) {
    if (table === 'workspaces') continue;
    if (plan.separate.has(table)) lines.push(`SELECT create_distributed_table('${table}', '${column}', colocate_with => 'none');`);
    else lines.push(`SELECT create_distributed_table('${table}', 'workspace_id', colocate_with => 'workspaces');`);
  }
  for (const table of plan.reference) lines.push(`SELECT create_reference_table('${table}');`);
  return lines.join('\n');
}
