import { z } from 'zod';
import { customFieldKindsInUse, customFieldOptionsInUse, lockCustomFieldDefinition, updateCustomFieldDefinitionIfRevision } from '@workcell/db';
import { CustomFieldDefinitionUpdate } from '@workcell/registry';
import { nothingToChange } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { DomainError } from '../kernel/errors.js';

import { defineProcedure } from '../kernel/procedure.js';
import { targetTypeOf } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import {
  assertOptionsFit,
  customFieldDefinitionIdOf,
  customFieldDefinitionNotFound,
  type CustomFieldDefinitionView,
  findCustomFieldDefinitionOr404,
  storedOptions,
  targetKinds,
  versionedCustomFieldDefinition,
} from './view.js';

export const updateCustomFieldDefinitionInput = z.object({ id: z.string().max(64), ...CustomFieldDefinitionUpdate.shape }).strict();

/**
 * `PATCH /v1/custom-field-definitions/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * label, target types, `required`, options (a given list replaces the stored one). A change never silently
 * invalidates stored values (docs/custom-fields.md): removing an option a stored value holds, or dropping a target
 * type whose targets hold values of the field, is 409 `custom_field_values_in_use` and changes nothing; `required`
 * applies to later writes. The row is locked (FOR UPDATE) before stored values are consulted, and values writes
 * share-lock the definitions they use, so neither can slip past the other. Writes `custom_field_definition.updated`
 * (the changed attribute names and the definition) in the same transaction.
 */
export const updateCustomFieldDefinition = defineProcedure('updateCustomFieldDefinition', updateCustomFieldDefinitionInput, async (op, input): Promise<Versioned<CustomFieldDefinitionView>> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = customFieldDefinitionIdOf(input.id);
  const targetTypes = input.targetTypes === undefined ? undefined : targetKinds(input.targetTypes);
  const options = input.options === undefined ? undefined : storedOptions(input.options);
  const change = {
    ...(input.label === undefined ? {} : { label: input.label }),
    ...(targetTypes === undefined ? {} : { targetTypes }),
    ...(input.required === undefined ? {} : { required: input.required }),
    ...(options === undefined ? {} : { options }),
  };
  if (Object.keys(change).length === 0) throw nothingToChange();
  const expected = expectedRevision(input.expectedVersion);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await lockCustomFieldDefinition(tx, workspaceId, id);
    if (!current) throw customFieldDefinitionNotFound();
    if (current.revision !== expected) throw casFailure('version_conflict', 'custom field definition');
    if (options !== undefined) {
      assertOptionsFit(current.fieldType, options, true);
      const kept = new Set(options.map((o) => o.key));
      const inUse = await customFieldOptionsInUse(
        tx,
        workspaceId,
        id,
        current.options.map((o) => o.key).filter((key) => !kept.has(key)),
      );
      if (inUse.length > 0) {
        throw new DomainError('custom_field_values_in_use', `stored values hold the options ${inUse.join(', ')}: archive them (archived: true) instead of removing them`, [
          { pointer: '/options', message: `options held by stored values cannot be removed: ${inUse.join(', ')}` },
        ]);
      }
    }
    if (targetTypes !== undefined) {
      const inUse = await customFieldKindsInUse(
        tx,
        workspaceId,
        id,
        current.targetTypes.filter((kind) => !targetTypes.includes(kind)),
      );
      if (inUse.length > 0) {
        const types = inUse.map(targetTypeOf).join(', ');
        throw new DomainError('custom_field_values_in_use', `${types} hold values of this field: clear them before dropping the target type`, [
          { pointer: '/targetTypes', message: `target types whose resources hold values of the field cannot be dropped: ${types}` },
        ]);
      }
    }
    const outcome = await updateCustomFieldDefinitionIfRevision(tx, workspaceId, id, expected, change);
    if (outcome !== 'updated') throw casFailure(outcome, 'custom field definition');
    const row = await findCustomFieldDefinitionOr404(tx, workspaceId, id);
    const result = versionedCustomFieldDefinition(row);
    await op.emit(tx, resourceEvent(op, { type: 'custom_field_definition', id, action: 'updated', view: { ...result.resource }, changed: Object.keys(change), at: now }));
    return result;
  });
});
