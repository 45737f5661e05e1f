import { z } from 'zod';
import { findCustomFieldValueSet } from '@workcell/db';
import { authInput } from '../kernel/inputs.js';
import { defineProcedure } from '../kernel/procedure.js';
import { resolveTarget, targetTypeInput } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { customFieldValuesView, type CustomFieldValuesView } from './values.js';

export const getCustomFieldValuesInput = z.object({ auth: authInput, targetType: targetTypeInput, id: z.string().max(64) }).strict();

/**
 * `GET /v1/{projects|tasks|contacts}/{id}/custom-field-values` (getProjectCustomFieldValues, …): the values of a
 * target of the caller's workspace, archived or not, that a service account's grants and its project's sharing let
 * the caller read (404 otherwise, kernel/targets.ts),
 * keyed by definition key (archived definitions' included), with their own version ("1" when never written).
 */
export const getCustomFieldValues = defineProcedure('getCustomFieldValues', getCustomFieldValuesInput, async (ctx, { auth, targetType, id }): Promise<Versioned<CustomFieldValuesView>> => {
  const target = await resolveTarget(ctx.database, auth, { type: targetType, id });
  const set = await findCustomFieldValueSet(ctx.database, auth.workspaceId, target.kind, target.id);
  return customFieldValuesView(ctx.database, auth.workspaceId, target, set);
});
