import { z } from 'zod';
import { ExpectedVersion, ResourceId, TargetType, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { CUSTOM_FIELD_MAX_OPTIONS, CUSTOM_FIELD_TEXT_MAX_CHARS } from './custom-field-definitions.js';

const f = family('custom-field-values');

export const CustomFieldValue = z
  .union([z.string().max(CUSTOM_FIELD_TEXT_MAX_CHARS), z.number(), z.boolean(), z.array(z.string().max(64)).max(CUSTOM_FIELD_MAX_OPTIONS), z.null()])
  .meta({ id: 'CustomFieldValue', description: 'A value; the definition decides which form is valid (see CustomFieldDefinition.fieldType).' });

export const CustomFieldValues = z
  .object({
    targetType: TargetType,
    targetId: ResourceId,
    values: z.record(z.string(), CustomFieldValue).describe("Keyed by definition key: every value the target holds, archived definitions' included (a cleared value is absent, never null)."),
    version: Version.describe('The version of this target\'s values (their own, not the target\'s); "1" for a target never written.'),
  })
  .meta({ id: 'CustomFieldValues', description: 'Custom-field values of one resource.' });

export const CustomFieldValuesUpdate = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    values: z.record(z.string().max(64), CustomFieldValue).describe('Keys to set (at least one); null clears a value. Other keys stay unchanged.'),
  })
  .meta({ id: 'CustomFieldValuesUpdate', description: 'Compare-and-set of custom-field values.' });

/**
 * Per-target operations (instead of one operation with an any-of rule): the
 * target's own read/write scope is a static all-of requirement.
 */
function valuesOf(target: 'Project' | 'Task' | 'Contact', segment: 'projects' | 'tasks' | 'contacts') {
  const path = `/v1/${segment}/{id}/custom-field-values` as const;
  const what = target.toLowerCase();
  const grants = `A service account needs a read grant on the ${what} (type \`${what}\`) to read its values and a write grant to change them; a ${what} it may not read answers 404 like a missing one.`;
  return [
    f.get(`get${target}CustomFieldValues`, path, {
      description: `The custom-field values of a ${what} of the workspace (archived or not), keyed by definition key, with their own version. ${grants}`,
      scopes: ['custom-field-values:read', `${segment}:read`],
      data: CustomFieldValues,
    }),
    f.update(`update${target}CustomFieldValues`, path, {
      summary: `Compare-and-set custom-field values of a ${what}`,
      description: [
        `Sets the named values of a ${what} (null clears one; others stay) when \`expectedVersion\` is the values' version (409 \`version_conflict\` otherwise), and answers them all with the new version. Writes \`${what}.custom_field_values_updated\` (the changed keys and their new values) on the ${what}: it shows in the ${what}'s activity and the change feed (with custom-field-values:read).`,
        `Each value is checked against its definition, and any violation answers 400 \`validation_failed\` with the pointer \`/values/<key>\` and writes nothing: a key no definition has, an archived definition, a definition whose \`targetTypes\` exclude ${segment}, a value of the wrong form (\`text\` 1 to 2,000 characters, a finite \`number\`, a \`date\` as \`YYYY-MM-DD\`, a \`boolean\`, an unarchived option key of a \`select\`, distinct unarchived option keys of a \`multi-select\`, the id of an active member for \`member\`), or a required definition left without a value.`,
        grants,
      ].join('\n\n'),
      scopes: ['custom-field-values:write', `${segment}:write`],
      concurrency: 'cas',
      body: CustomFieldValuesUpdate,
      data: CustomFieldValues,
    }),
  ];
}

export const customFieldValueOperations = [...valuesOf('Project', 'projects'), ...valuesOf('Task', 'tasks'), ...valuesOf('Contact', 'contacts')] satisfies readonly OperationDefinition[];
