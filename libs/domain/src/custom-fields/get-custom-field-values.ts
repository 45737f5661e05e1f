import { z } from 'zod';
import { findCustomFieldValueSet } from '@workcell/db';

import { defineProcedure } from '../kernel/procedure.js';
import { resolveTarget, targetTypeInput } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { customFieldValuesView, type CustomFieldValuesView } from './values.js';

export const getCustomFieldValuesInput = z.object({ targetType: targetTypeInput, id: z.string().max(64) }).strict();

/**
 * `GET /v1/{projects|tasks|contacts}/{id}/custom-field-values` (getProjectCustomFieldValues, …): the values of a
 * target of the caller's workspace, archived or not, that a service account's grants and its project's sharing let
 * the caller read (404 otherwise, kernel/targets.ts),
 * keyed by definition key (archived definitions' included), with their own version ("1" when never written).
 */
export const getCustomFieldValues = defineProcedure('getCustomFieldValues', getCustomFieldValuesInput, async (op, { targetType, id }): Promise<Versioned<CustomFieldValuesView>> => {
  const { auth } = op;
  const target = await resolveTarget(op.database, auth, { type: targetType, id });
  const set = await findCustomFieldValueSet(op.database, auth.workspaceId, target.kind, target.id);
  return customFieldValuesView(op.database, auth.workspaceId, target, set);
});
