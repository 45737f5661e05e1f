import { z } from 'zod';
import { insertCustomFieldDefinition } from '@workcell/db';
import { CustomFieldDefinitionCreate } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { assertOptionsFit, type CustomFieldDefinitionView, storedFieldType, storedOptions, targetKinds, versionedCustomFieldDefinition } from './view.js';

export const createCustomFieldDefinitionInput = z.object({ ...CustomFieldDefinitionCreate.shape }).strict();

/**
 * `POST /v1/custom-field-definitions`: a new definition (revision 1). Target types are distinct; options fit the
 * field type (view.ts); a key the workspace already has, archived definitions included, is 409 `conflict` /key.
 * Writes `custom_field_definition.created` in the same transaction, which also completes a held idempotency key.
 */
export const createCustomFieldDefinition = defineProcedure('createCustomFieldDefinition', createCustomFieldDefinitionInput, async (op, input): Promise<Versioned<CustomFieldDefinitionView>> => {
  const { auth } = op;
  const fieldType = storedFieldType(input.fieldType);
  const targetTypes = targetKinds(input.targetTypes);
  const options = storedOptions(input.options ?? []);
  assertOptionsFit(fieldType, options, input.options !== undefined);
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const row = await insertCustomFieldDefinition(tx, workspaceId, { key: input.key, label: input.label, fieldType, targetTypes, required: input.required ?? false, options });
    if (!row) {
      throw new DomainError('conflict', 'a custom field with this key already exists', [
        { pointer: '/key', message: `the workspace already has a custom field keyed ${JSON.stringify(input.key)} (archived ones keep their keys)` },
      ]);
    }
    const result = versionedCustomFieldDefinition(row);
    await op.emit(tx, resourceEvent(op, { type: 'custom_field_definition', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
