import { activeMemberIds, type Db, type CustomFieldDefinitionRecord, customFieldDefinitionsByIds, type CustomFieldValueSetRecord } from '@workcell/db';
import { CUSTOM_FIELD_TEXT_MAX_CHARS, DateOnly } from '@workcell/registry';
import { versionOf } from '../kernel/cas.js';
import type { FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { Target, TargetType } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { validationError } from '../roles/permission-model.js';

/**
 * Custom-field values (docs/custom-fields.md "Values"): one set per target, stored keyed by definition id (keys are
 * what the API names them by; a definition's key never changes), with its own revision. A write names keys to set
 * (null clears); each value is checked against its definition, every problem answered at once as 400 with the
 * pointer `/values/<key>`, before anything is written.
 */

export type CustomFieldValueInput = string | number | boolean | string[] | null;

/** A target's values as the registry's CustomFieldValues. */
export interface CustomFieldValuesView {
  readonly targetType: TargetType;
  readonly targetId: string;
  readonly values: Record<string, unknown>;
  readonly version: string;
}

/** The stored values named by key (archived definitions' included), keys in order. */
export async function customFieldValuesView(client: Db, workspaceId: string, target: Target, set: CustomFieldValueSetRecord): Promise<Versioned<CustomFieldValuesView>> {
  const definitions = await customFieldDefinitionsByIds(client, workspaceId, Object.keys(set.values));
  const values = Object.fromEntries(
    definitions
      .map((d) => [d.key, set.values[d.id]] as const)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { resource: { targetType: target.type, targetId: target.id, values, version: versionOf(set.revision) }, revision: set.revision };
}

const codePoints = (text: string): number => [...text].length;

/** What is wrong with `value` for `definition` (null: nothing). Member ids are checked for activity by the caller. */
function problemOf(definition: CustomFieldDefinitionRecord, value: Exclude<CustomFieldValueInput, null>): string | null {
  const liveOption = (key: string) => definition.options.some((o) => o.key === key && o.archived !== true);
  switch (definition.fieldType) {
    case 'text':
      return typeof value === 'string' && value.length > 0 && codePoints(value) <= CUSTOM_FIELD_TEXT_MAX_CHARS ? null : `a text of 1 to ${CUSTOM_FIELD_TEXT_MAX_CHARS} characters`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a finite number';
    case 'date':
      // The registry's DateOnly, as every date of the API: a real calendar date in 0001-01-01..9999-12-31.
      return DateOnly.safeParse(value).success ? null : 'a calendar date YYYY-MM-DD from 0001-01-01 to 9999-12-31';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'single_select':
      return typeof value === 'string' && liveOption(value) ? null : `the key of an unarchived option (${liveKeys(definition)})`;
    case 'multi_select':
      if (!Array.isArray(value) || value.length === 0) return `a non-empty array of keys of unarchived options (${liveKeys(definition)})`;
      if (new Set(value).size !== value.length) return 'distinct option keys';
      return value.every(liveOption) ? null : `keys of unarchived options (${liveKeys(definition)})`;
    case 'member':
      return typeof value === 'string' && isUuid(value) ? null : 'the id of an active member of the workspace';
    default:
      return 'no value: this field type takes none';
  }
}

function liveKeys(definition: CustomFieldDefinitionRecord): string {
  const keys = definition.options.filter((o) => o.archived !== true).map((o) => o.key);
  return keys.length === 0 ? 'none is' : `one of ${keys.join(', ')}`;
}

/**
 * The stored change of a write (`set` by definition id, `remove` ids), or 400 with every problem: a key no definition
 * has, an archived definition, one whose target types exclude the target's, a value its type refuses, a member id
 * that is no active member of the workspace. `definitions` are those the write names (locked by the caller).
 */
export async function customFieldValueChange(
  client: Db,
  workspaceId: string,
  target: Target,
  definitions: readonly CustomFieldDefinitionRecord[],
  values: Readonly<Record<string, CustomFieldValueInput>>,
): Promise<{ set: Record<string, unknown>; remove: string[] }> {
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const issues: FieldIssue[] = [];
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  const members: { pointer: string; id: string }[] = [];
  for (const [key, value] of Object.entries(values)) {
    const pointer = `/values/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const definition = byKey.get(key);
    if (!definition) {
      issues.push({ pointer, message: `no custom field has the key ${JSON.stringify(key)}` });
      continue;
    }
    if (definition.archivedAt !== null) {
      issues.push({ pointer, message: `the custom field ${JSON.stringify(key)} is archived: it accepts no values until restored` });
      continue;
    }
    if (!definition.targetTypes.includes(target.kind)) {
      issues.push({ pointer, message: `the custom field ${JSON.stringify(key)} does not apply to ${target.type}` });
      continue;
    }
    if (value === null) {
      remove.push(definition.id);
      continue;
    }
    const problem = problemOf(definition, value);
    if (problem !== null) {
      issues.push({ pointer, message: `expected ${problem}` });
      continue;
    }
    if (definition.fieldType === 'member') members.push({ pointer, id: (value as string).toLowerCase() });
    set[definition.id] = definition.fieldType === 'member' ? (value as string).toLowerCase() : value;
  }
  if (members.length > 0) {
    const active = await activeMemberIds(
      client,
      workspaceId,
      members.map((m) => m.id),
    );
    for (const m of members) if (!active.has(m.id)) issues.push({ pointer: m.pointer, message: `no active member ${JSON.stringify(m.id)} in this workspace` });
  }
  if (issues.length > 0) throw validationError('the custom-field values are not valid', issues);
  return { set, remove };
}

/** 400 unless the written set holds a value for every unarchived required definition applying to the target. */
export function assertRequiredHeld(target: Target, definitions: readonly CustomFieldDefinitionRecord[], stored: Readonly<Record<string, unknown>>): void {
  const missing = definitions.filter((d) => d.required && d.archivedAt === null && d.targetTypes.includes(target.kind) && stored[d.id] === undefined);
  if (missing.length === 0) return;
  throw validationError(
    'required custom fields are left without a value',
    missing.map((d) => ({ pointer: `/values/${d.key}`, message: `the custom field ${JSON.stringify(d.key)} is required on ${target.type}` })),
  );
}
