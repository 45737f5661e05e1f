import { Prisma } from './generated/prisma/client.js';
import type { CustomFieldType } from './generated/prisma/enums.js';
import { unarchivedPage } from './keyset.js';
import { revisionedColumns, setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import type { TargetKind } from './targets.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * Custom fields: definitions (a schema per workspace, keyed by a stable `key`, applying to contacts, projects and/or
 * tasks) and the values of one target (`custom_field_value_sets`: a jsonb object keyed by definition id, with its
 * own revision). Every query is scoped by the workspace id. Definitions are archived, never deleted, so a stored
 * value always names a definition that exists.
 */

export type CustomFieldTypeValue = CustomFieldType;

/** A select option as stored (the definition's `options` jsonb). */
export interface CustomFieldOptionRecord {
  readonly key: string;
  readonly label: string;
  readonly archived?: boolean;
}

const select = {
  id: true,
  workspaceId: true,
  key: true,
  label: true,
  fieldType: true,
  targetTypes: true,
  required: true,
  options: true,
  ...revisionedColumns,
} as const satisfies Prisma.CustomFieldDefinitionSelect;

type Selected = Prisma.CustomFieldDefinitionGetPayload<{ select: typeof select }>;

/** The row with its target types and its stored `options` as this layer reads them (recordOf); an interface, so that other projects' declarations name it. */
export interface CustomFieldDefinitionRecord extends Readonly<Omit<Selected, 'fieldType' | 'targetTypes' | 'options'>> {
  readonly fieldType: CustomFieldTypeValue;
  readonly targetTypes: readonly TargetKind[];
  readonly options: readonly CustomFieldOptionRecord[];
}

/** Only the three kinds custom fields attach to (the enum also holds `time_entry`, which nothing writes). */
function recordOf(row: Selected): CustomFieldDefinitionRecord {
  return { ...row, targetTypes: row.targetTypes.filter((t): t is TargetKind => t !== 'time_entry'), options: (row.options ?? []) as unknown as CustomFieldOptionRecord[] };
}

/** One definition of the workspace, archived or not. */
export async function findCustomFieldDefinition(client: Db, workspaceId: string, id: string): Promise<CustomFieldDefinitionRecord | null> {
  const row = await client.prisma.customFieldDefinition.findFirst({ where: { workspaceId, id }, select });
  return row && recordOf(row);
}

/** The definition row locked against concurrent writers (FOR UPDATE) for the rest of the transaction; null when missing. */
export async function lockCustomFieldDefinition(tx: Db, workspaceId: string, id: string): Promise<CustomFieldDefinitionRecord | null> {
  const rows = await tx.rows<{ id: string }>(Prisma.sql`SELECT id::text FROM custom_field_definitions WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid FOR UPDATE`);
  return rows.length === 0 ? null : findCustomFieldDefinition(tx, workspaceId, id);
}

/** One keyset page of the workspace's unarchived definitions in id order, optionally only those applying to a kind. */
export async function listCustomFieldDefinitionsPage(
  client: Db,
  workspaceId: string,
  filter: { readonly targetKind?: TargetKind | undefined },
  afterId: string | undefined,
  take: number,
): Promise<CustomFieldDefinitionRecord[]> {
  const rows = await client.prisma.customFieldDefinition.findMany({
    ...unarchivedPage(workspaceId, filter.targetKind === undefined ? {} : { targetTypes: { has: filter.targetKind } }, afterId, take),
    select,
  });
  return rows.map(recordOf);
}

/** Definitions by id (archived ones too), to name the stored values of a target by key. */
export async function customFieldDefinitionsByIds(client: Db, workspaceId: string, ids: readonly string[]): Promise<CustomFieldDefinitionRecord[]> {
  if (ids.length === 0) return [];
  const rows = await client.prisma.customFieldDefinition.findMany({ where: { workspaceId, id: { in: [...ids] } }, select });
  return rows.map(recordOf);
}

/**
 * The definitions a values write depends on, share-locked (FOR SHARE) until it commits: those named by `keys` and the
 * unarchived required ones applying to `kind`. A definition change (compare-and-set update, archive) waits for the
 * write, and the write for it: a value can never be stored against a definition state that refuses it.
 */
export async function lockCustomFieldDefinitionsForValues(tx: Db, workspaceId: string, keys: readonly string[], kind: TargetKind): Promise<CustomFieldDefinitionRecord[]> {
  const rows = await tx.rows<{ id: string }>(Prisma.sql`SELECT id::text FROM custom_field_definitions
      WHERE workspace_id = ${workspaceId}::uuid
        AND (key = ANY(${[...keys]}::text[]) OR (required AND archived_at IS NULL AND ${kind}::custom_field_target_type = ANY(target_types)))
      ORDER BY id FOR SHARE`);
  return customFieldDefinitionsByIds(
    tx,
    workspaceId,
    rows.map((r) => r.id),
  );
}

export interface CustomFieldDefinitionChanges {
  readonly label?: string;
  readonly targetTypes?: readonly TargetKind[];
  readonly required?: boolean;
  readonly options?: readonly CustomFieldOptionRecord[];
}

/** A new definition (revision 1); null when the workspace already has one with this key (archived ones included). */
export async function insertCustomFieldDefinition(
  tx: Db,
  workspaceId: string,
  values: Required<CustomFieldDefinitionChanges> & { key: string; fieldType: CustomFieldTypeValue },
): Promise<CustomFieldDefinitionRecord | null> {
  // ON CONFLICT DO NOTHING: a concurrent create of the same key is told apart here, not by a unique-violation error.
  const [row] = await tx.prisma.customFieldDefinition.createManyAndReturn({
    data: [
      {
        workspaceId,
        key: values.key,
        label: values.label,
        fieldType: values.fieldType,
        targetTypes: [...values.targetTypes],
        required: values.required,
        options: [...values.options] as unknown as Prisma.InputJsonValue,
      },
    ],
    skipDuplicates: true,
    select,
  });
  return row ? recordOf(row) : null;
}

/** Compare-and-set of a definition's configuration: one `UPDATE … WHERE revision = $expected`. */
export function updateCustomFieldDefinitionIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, change: CustomFieldDefinitionChanges): Promise<CasOutcome> {
  const data = {
    ...(change.label === undefined ? {} : { label: change.label }),
    ...(change.targetTypes === undefined ? {} : { targetTypes: [...change.targetTypes] }),
    ...(change.required === undefined ? {} : { required: change.required }),
    ...(change.options === undefined ? {} : { options: [...change.options] as unknown as Prisma.InputJsonValue }),
  };
  return updateIfRevision(tx.prisma.customFieldDefinition, workspaceId, id, expectedRevision, data);
}

/** Sets or clears `archived_at`; false when the definition is missing or already in that state. */
export function setCustomFieldDefinitionArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.customFieldDefinition, workspaceId, id, archivedAt);
}

/** Of the given option keys of a definition, those a stored value uses (a select value or an element of a multi-select). */
export async function customFieldOptionsInUse(client: Db, workspaceId: string, definitionId: string, optionKeys: readonly string[]): Promise<string[]> {
  if (optionKeys.length === 0) return [];
  const rows = await client.rows<{ key: string }>(Prisma.sql`SELECT o.key FROM unnest(${[...optionKeys]}::text[]) AS o(key)
      WHERE EXISTS (SELECT 1 FROM custom_field_value_sets s WHERE s.workspace_id = ${workspaceId}::uuid
        AND (s.field_values @> jsonb_build_object(${definitionId}::text, o.key) OR s.field_values @> jsonb_build_object(${definitionId}::text, jsonb_build_array(o.key))))`);
  return rows.map((r) => r.key);
}

/** Of the given kinds, those with a target holding a value of the definition. */
export async function customFieldKindsInUse(client: Db, workspaceId: string, definitionId: string, kinds: readonly TargetKind[]): Promise<TargetKind[]> {
  if (kinds.length === 0) return [];
  const rows = await client.rows<{ kind: TargetKind }>(Prisma.sql`SELECT DISTINCT target_type::text AS kind FROM custom_field_value_sets
      WHERE workspace_id = ${workspaceId}::uuid AND target_type::text = ANY(${[...kinds]}::text[]) AND field_values ? ${definitionId}::text`);
  return rows.map((r) => r.kind);
}

/** The values of one target: keyed by definition id; a target never written has none, at revision 1. */
export interface CustomFieldValueSetRecord {
  readonly values: Readonly<Record<string, unknown>>;
  readonly revision: number;
}

export async function findCustomFieldValueSet(client: Db, workspaceId: string, kind: TargetKind, targetId: string): Promise<CustomFieldValueSetRecord> {
  const row = await client.prisma.customFieldValueSet.findUnique({
    where: { workspaceId_targetType_targetId: { workspaceId, targetType: kind, targetId } },
    select: { fieldValues: true, revision: true },
  });
  return row ? { values: row.fieldValues as Record<string, unknown>, revision: row.revision } : { values: {}, revision: 1 };
}

/**
 * Compare-and-set of a target's values in one statement: sets the values of `set` and removes the ids of `remove`,
 * when the stored revision is `expectedRevision`. A target never written is at revision 1, which only the insert
 * matches; of concurrent first writes one inserts and the others find the row (ON CONFLICT DO NOTHING) and miss.
 * Null when the revision is stale.
 */
export async function writeCustomFieldValueSet(
  tx: Db,
  workspaceId: string,
  kind: TargetKind,
  targetId: string,
  expectedRevision: number,
  change: { readonly set: Readonly<Record<string, unknown>>; readonly remove: readonly string[] },
): Promise<CustomFieldValueSetRecord | null> {
  const set = JSON.stringify(change.set);
  const remove = [...change.remove];
  const [row] = await tx.rows<{ values: Record<string, unknown>; revision: number }>(
    // A stored set is at revision 2 or later: revision 1 names "never written", which only the insert can match.
    Prisma.sql`WITH updated AS (
        UPDATE custom_field_value_sets
          SET field_values = (field_values || ${set}::jsonb) - ${remove}::text[], revision = revision + 1, updated_at = now()
          WHERE workspace_id = ${workspaceId}::uuid AND target_type = ${kind}::custom_field_target_type AND target_id = ${targetId}::uuid AND revision = ${expectedRevision}::int
          RETURNING field_values, revision
      ), inserted AS (
        INSERT INTO custom_field_value_sets (workspace_id, target_type, target_id, field_values, revision)
          SELECT ${workspaceId}::uuid, ${kind}::custom_field_target_type, ${targetId}::uuid, ${set}::jsonb - ${remove}::text[], 2
          WHERE ${expectedRevision}::int = 1
          ON CONFLICT (workspace_id, target_type, target_id) DO NOTHING
          RETURNING field_values, revision
      )
      SELECT field_values AS values, revision FROM updated UNION ALL SELECT field_values AS values, revision FROM inserted`,
  );
  return row ?? null;
}
