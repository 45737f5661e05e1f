import { z } from 'zod';
import { archivableFields, casPatchOf, Name, TargetType, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const CustomFieldType = z.enum(['text', 'number', 'date', 'boolean', 'select', 'multi-select']);

export const CustomFieldOption = z
  .strictObject({ key: z.string().regex(/^[a-z0-9_-]{1,64}$/), label: Name, archived: z.boolean().optional() })
  .meta({ id: 'CustomFieldOption', description: 'One option of a select field.' });

export const CustomFieldDefinition = z
  .object({
    ...archivableFields,
    key: z.string().describe('Stable key used in custom-field values.'),
    label: z.string(),
    fieldType: CustomFieldType,
    targetTypes: z.array(TargetType),
    required: z.boolean(),
    options: z.array(CustomFieldOption),
    version: Version,
  })
  .meta({ id: 'CustomFieldDefinition', description: 'Schema and configuration of a custom field (not its values).' });

const definitionFields = z.strictObject({
  label: Name,
  targetTypes: z.array(TargetType).min(1).max(3),
  required: z.boolean().optional(),
  options: z.array(CustomFieldOption).max(500).optional(),
});
export const CustomFieldDefinitionCreate = definitionFields
  .extend({ key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), fieldType: CustomFieldType })
  .meta({ id: 'CustomFieldDefinitionCreate', description: 'A new custom field; key and fieldType are immutable.' });
export const CustomFieldDefinitionUpdate = casPatchOf(
  definitionFields,
  'CustomFieldDefinitionUpdate',
  'Compare-and-set of the custom-field configuration (validated against stored values).',
);

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
    filters: { targetType: TargetType.optional() },
  }),
] satisfies readonly OperationDefinition[];
