import type { z } from 'zod';
import {
  type CustomFieldDefinitionRecord,
  type CustomFieldOptionRecord,
  type CustomFieldTypeValue,
  findCustomFieldDefinition,
  setCustomFieldDefinitionArchived,
  type TargetKind,
  type Db,
} from '@workcell/db';
import type { CustomFieldOption, CustomFieldType } from '@workcell/registry';
import { archivable } from '../kernel/archival.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { versionOf } from '../kernel/cas.js';
import type { FieldIssue } from '../kernel/errors.js';
import { TARGETS, type TargetType, targetTypeOf } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';
import { validationError } from '../roles/permission-model.js';

/**
 * Custom-field definitions (docs/custom-fields.md): a typed field per workspace, keyed by an immutable `key`, applying
 * to contacts, projects and/or tasks. Definitions are workspace configuration: the custom-field-definitions scopes
 * alone bound them (no resource-grant type). The rules that keep stored values valid across definition changes are
 * in update-custom-field-definition.ts; the value rules in values.ts.
 */

type FieldTypeName = z.output<typeof CustomFieldType>;
type OptionInput = z.output<typeof CustomFieldOption>;

/** The registry's field types and the stored enum's names where they differ. */
const STORED_TYPE: Readonly<Record<FieldTypeName, CustomFieldTypeValue>> = {
  text: 'text',
  number: 'number',
  date: 'date',
  boolean: 'boolean',
  select: 'single_select',
  'multi-select': 'multi_select',
  member: 'member',
};
const WIRE_TYPE = new Map(Object.entries(STORED_TYPE).map(([wire, stored]) => [stored, wire as FieldTypeName]));

export const storedFieldType = (wire: FieldTypeName): CustomFieldTypeValue => STORED_TYPE[wire];
export const isSelectType = (type: CustomFieldTypeValue): boolean => type === 'single_select' || type === 'multi_select';

// A type, not an interface: event payloads (JSON) take it.
export type CustomFieldOptionView = { readonly key: string; readonly label: string; readonly archived: boolean };

/** A definition as the registry's CustomFieldDefinition. */
export interface CustomFieldDefinitionView extends ArchivableView {
  readonly key: string;
  readonly label: string;
  readonly fieldType: FieldTypeName;
  readonly targetTypes: TargetType[];
  readonly required: boolean;
  readonly options: CustomFieldOptionView[];
  readonly version: string;
}

export function customFieldDefinitionView(row: CustomFieldDefinitionRecord): CustomFieldDefinitionView {
  return withArchivableFields(row, {
    key: row.key,
    label: row.label,
    // `url`, a value of the stored enum no definition is created with, has no wire name.
    fieldType: WIRE_TYPE.get(row.fieldType) ?? 'text',
    targetTypes: row.targetTypes.map(targetTypeOf),
    required: row.required,
    options: row.options.map((o) => ({ key: o.key, label: o.label, archived: o.archived === true })),
    version: versionOf(row.revision),
  });
}

export function versionedCustomFieldDefinition(row: CustomFieldDefinitionRecord): Versioned<CustomFieldDefinitionView> {
  return { resource: customFieldDefinitionView(row), revision: row.revision };
}

/** Options as stored: `archived` always present. */
export function storedOptions(options: readonly OptionInput[]): CustomFieldOptionRecord[] {
  return options.map((o) => ({ key: o.key, label: o.label, archived: o.archived === true }));
}

/**
 * Distinct target types as stored kinds; a repeated one is 400 with its pointer (`/targetTypes/<i>`).
 */
export function targetKinds(types: readonly TargetType[]): TargetKind[] {
  const issues: FieldIssue[] = [];
  types.forEach((type, i) => {
    if (types.indexOf(type) !== i) issues.push({ pointer: `/targetTypes/${i}`, message: `${type} is already listed` });
  });
  if (issues.length > 0) throw validationError('target types are listed once each', issues);
  return types.map((type) => TARGETS[type].kind);
}

/**
 * The options of a field of `fieldType`: only select and multi-select fields have them, and need at least one;
 * option keys are distinct. 400 with a pointer per problem. `given` says whether the request named the options.
 */
export function assertOptionsFit(fieldType: CustomFieldTypeValue, options: readonly CustomFieldOptionRecord[], given: boolean): void {
  const issues: FieldIssue[] = [];
  if (!isSelectType(fieldType)) {
    if (options.length > 0) issues.push({ pointer: '/options', message: 'only select and multi-select fields have options' });
  } else if (options.length === 0) {
    issues.push({ pointer: '/options', message: 'a select or multi-select field needs at least one option' });
  }
  const keys = options.map((o) => o.key);
  keys.forEach((key, i) => {
    if (keys.indexOf(key) !== i) issues.push({ pointer: `/options/${i}/key`, message: `the option key ${JSON.stringify(key)} is already used by another option` });
  });
  if (issues.length > 0) throw validationError(given ? 'the options do not fit the field' : 'the field needs options', issues);
}

export const customFieldDefinitionNotFound = notFoundOf('custom field definition');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const customFieldDefinitionIdOf = (raw: string): string => idOf(raw, customFieldDefinitionNotFound);

export const findCustomFieldDefinitionOr404 = (tx: Db, workspaceId: string, id: string): Promise<CustomFieldDefinitionRecord> =>
  foundOr(findCustomFieldDefinition(tx, workspaceId, id), customFieldDefinitionNotFound);

/** How a definition is archived and restored (kernel/archival.ts); no resource grant applies. */
export const archivableCustomFieldDefinition = archivable({
  type: 'custom_field_definition',
  find: findCustomFieldDefinition,
  setArchived: setCustomFieldDefinitionArchived,
  answer: versionedCustomFieldDefinition,
});
