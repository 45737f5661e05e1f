import { z } from 'zod';
import { lockCustomFieldDefinitionsForValues, writeCustomFieldValueSet } from '@workcell/db';
import { CustomFieldValuesUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';

import { defineProcedure } from '../kernel/procedure.js';
import { resolveTarget, targetTypeInput } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { validationError } from '../roles/permission-model.js';
import { assertRequiredHeld, customFieldValueChange, customFieldValuesView, type CustomFieldValuesView } from './values.js';

/** The event of a values write, on the target's aggregate (events/catalog.ts). */
const VALUES_UPDATED = { project: 'project.custom_field_values_updated', task: 'task.custom_field_values_updated', contact: 'contact.custom_field_values_updated' } as const;

export const updateCustomFieldValuesInput = z.object({ targetType: targetTypeInput, id: z.string().max(64), ...CustomFieldValuesUpdate.shape }).strict();

/**
 * `PATCH /v1/{projects|tasks|contacts}/{id}/custom-field-values` (updateProjectCustomFieldValues, …): compare-and-set
 * of a target's values on `expectedVersion` (409 version_conflict when stale). The target must be in the caller's
 * workspace and writable under a service account's grants (404 / 403 `insufficient_grant`) and under its project's
 * sharing (hidden: 404; a viewer: 403 `insufficient_project_access`; kernel/targets.ts); every value must fit
 * its definition, and every unarchived required definition must hold a value afterwards (400 `/values/<key>`).
 * Writes `<target>.custom_field_values_updated` (changed keys, their new values, the version) on the target's
 * aggregate in the same transaction, so it shows in the target's activity and the change feed.
 */
export const updateCustomFieldValues = defineProcedure('updateCustomFieldValues', updateCustomFieldValuesInput, async (op, input): Promise<Versioned<CustomFieldValuesView>> => {
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  const keys = Object.keys(input.values).sort();
  if (keys.length === 0) throw validationError('nothing to change: name at least one value', [{ pointer: '/values', message: 'at least one key is required' }]);
  const expected = expectedRevision(input.expectedVersion);
  const now = op.now();
  return op.transaction(async (tx) => {
    const target = await resolveTarget(tx, auth, { type: input.targetType, id: input.id }, { access: 'write' });
    const definitions = await lockCustomFieldDefinitionsForValues(tx, workspaceId, keys, target.kind);
    const change = await customFieldValueChange(tx, workspaceId, target, definitions, input.values);
    const written = await writeCustomFieldValueSet(tx, workspaceId, target.kind, target.id, expected, change);
    if (!written) throw casFailure('version_conflict', `${target.kind}'s custom-field values`);
    assertRequiredHeld(target, definitions, written.values);
    const result = await customFieldValuesView(tx, workspaceId, target, written);
    const values = Object.fromEntries(keys.map((key) => [key, result.resource.values[key] ?? null]));
    await op.emit(tx, {
      aggregateType: target.kind,
      aggregateId: target.id,
      eventType: `${VALUES_UPDATED[target.kind]}`,
      payload: { targetType: target.type, targetId: target.id, changed: keys, values, version: result.resource.version, requestId },
      occurredAt: now,
    });
    return result;
  });
});
