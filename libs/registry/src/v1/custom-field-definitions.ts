import { z } from 'zod';
import { archivableFields, casPatchOf, Name, TargetType, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

/** `member`: a value is the id of an active member of the workspace (issue 13: "member reference"). */
export const CustomFieldType = z.enum(['text', 'number', 'date', 'boolean', 'select', 'multi-select', 'member']);

/** The bounds of a value (docs/custom-fields.md "Values"); the domain checks them with a pointer to the field. */
export const CUSTOM_FIELD_TEXT_MAX_CHARS = 2000;
export const CUSTOM_FIELD_MAX_OPTIONS = 500;

export const CustomFieldOption = z
  .strictObject({
    key: z
      .string()
      .max(64)
      .regex(/^[a-z0-9_-]{1,64}$/),
    label: Name,
    archived: z.boolean().optional().describe('An archived option stays readable in stored values but is refused in new writes.'),
  })
  .meta({ id: 'CustomFieldOption', description: 'One option of a select or multi-select field; its key is what values hold.' });

const TYPES = [
  '`text`: a string of 1 to 2,000 characters',
  '`number`: a finite JSON number',
  '`date`: a calendar date `YYYY-MM-DD` from 0001-01-01 to 9999-12-31',
  '`boolean`: true or false',
  '`select`: the key of one unarchived option',
  '`multi-select`: a non-empty array of distinct keys of unarchived options',
  '`member`: the id of an active member of the workspace',
].join('; ');

export const CustomFieldDefinition = z
  .object({
    ...archivableFields,
    key: z.string().describe('Stable key used in custom-field values; unique in the workspace (archived definitions included) and immutable.'),
    label: z.string(),
    fieldType: CustomFieldType.describe(`What a value is (immutable): ${TYPES}.`),
    targetTypes: z.array(TargetType).describe('The resource types whose values may hold this field.'),
    required: z.boolean().describe('Every values write must leave the target with a value for it (writes after it was set; stored sets are not re-checked).'),
    options: z.array(CustomFieldOption).describe('The options of a select or multi-select field (empty for other types).'),
    version: Version,
  })
  .meta({ id: 'CustomFieldDefinition', description: 'Schema and configuration of a custom field (not its values).' });

const definitionFields = z.strictObject({
  label: Name,
  targetTypes: z.array(TargetType).min(1).max(3).describe('Distinct resource types (a repeated one is 400).'),
  required: z.boolean().optional(),
  options: z
    .array(CustomFieldOption)
    .max(CUSTOM_FIELD_MAX_OPTIONS)
    .optional()
    .describe('Only for select and multi-select fields, which need at least one; option keys are distinct. On update the list replaces the stored one.'),
});
export const CustomFieldDefinitionCreate = definitionFields
  .extend({
    key: z
      .string()
      .max(64)
      .regex(/^[a-z][a-z0-9_]{0,63}$/),
    fieldType: CustomFieldType,
  })
  .meta({ id: 'CustomFieldDefinitionCreate', description: 'A new custom field; key and fieldType are immutable.' });
export const CustomFieldDefinitionUpdate = casPatchOf(definitionFields, 'CustomFieldDefinitionUpdate', 'Compare-and-set of the custom-field configuration (validated against stored values).');

const NO_GRANTS = 'Definitions are workspace configuration: custom-field-definitions scopes alone bound them (a service account needs no resource grant).';
const STORED =
  'A change never silently invalidates stored values: `key` and `fieldType` cannot change; removing an option that a stored value holds, or dropping a target type whose resources hold values of the field, answers 409 `custom_field_values_in_use` and changes nothing (archive the option instead: `archived: true` keeps stored values readable and refuses new writes of it); `required` applies to later writes only.';

export const customFieldDefinitionOperations = [
  ...archivableCrud('custom-field-definitions', {
    singular: 'CustomFieldDefinition',
    plural: 'CustomFieldDefinitions',
    path: '/v1/custom-field-definitions',
    read: ['custom-field-definitions:read'],
    write: ['custom-field-definitions:write'],
    resource: CustomFieldDefinition,
    create: CustomFieldDefinitionCreate,
    update: CustomFieldDefinitionUpdate,
    updateConcurrency: 'cas',
    filters: { targetType: TargetType.optional().describe('Only definitions applying to this resource type.') },
    descriptions: {
      list: `The workspace's unarchived custom-field definitions, oldest first. ${NO_GRANTS}`,
      create: `A new custom-field definition (version 1). A key the workspace already has (archived definitions included) answers 409 \`conflict\` (pointer \`/key\`); options on a field that is not a select or multi-select, a select without options, repeated option keys or target types answer 400 with a pointer. Values: ${TYPES}. ${NO_GRANTS}`,
      get: `One definition of the workspace, archived or not. ${NO_GRANTS}`,
      update: `Changes the label, target types, \`required\` or options. ${STORED} ${NO_GRANTS}`,
      archive: `Archives the definition (never deletes it): it leaves the list; stored values stay and are still read (under its key), but a values write naming it answers 400 with the pointer \`/values/<key>\`, and it is no longer required. Archiving it again changes nothing. ${NO_GRANTS}`,
      restore: `Restores an archived definition: its stored values are writable again. Restoring one that is not archived changes nothing. ${NO_GRANTS}`,
    },
  }),
] satisfies readonly OperationDefinition[];
