import { z } from 'zod';
import { ExpectedVersion, ResourceId, TargetType, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('custom-field-values');

export const CustomFieldValue = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()])
  .meta({ id: 'CustomFieldValue', description: 'A value; the definition decides which form is valid.' });

export const CustomFieldValues = z
  .object({
    targetType: TargetType,
    targetId: ResourceId,
    values: z.record(z.string(), CustomFieldValue).describe('Keyed by definition key.'),
    version: Version,
  })
  .meta({ id: 'CustomFieldValues', description: 'Custom-field values of one resource.' });

export const CustomFieldValuesUpdate = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    values: z.record(z.string(), CustomFieldValue).describe('Keys to set; null clears a value. Other keys stay unchanged.'),
  })
  .meta({ id: 'CustomFieldValuesUpdate', description: 'Compare-and-set of custom-field values.' });

/**
 * Per-target operations (instead of one operation with an any-of rule): the
 * target's own read/write scope is a static all-of requirement.
 */
function valuesOf(target: 'Project' | 'Task' | 'Contact', segment: 'projects' | 'tasks' | 'contacts') {
  const path = `/v1/${segment}/{id}/custom-field-values` as const;
  return [
    f.get(`get${target}CustomFieldValues`, path, {
      scopes: ['custom-field-values:read', `${segment}:read`],
      data: CustomFieldValues,
    }),
    f.update(`update${target}CustomFieldValues`, path, {
      summary: `Compare-and-set custom-field values of a ${target.toLowerCase()}`,
      scopes: ['custom-field-values:write', `${segment}:write`],
      concurrency: 'cas',
      body: CustomFieldValuesUpdate,
      data: CustomFieldValues,
    }),
  ];
}

export const customFieldValueOperations = [
  ...valuesOf('Project', 'projects'),
  ...valuesOf('Task', 'tasks'),
  ...valuesOf('Contact', 'contacts'),
] satisfies readonly OperationDefinition[];
