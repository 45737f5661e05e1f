import { z } from 'zod';
import { findCustomFieldDefinition } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { customFieldDefinitionNotFound, type CustomFieldDefinitionView, versionedCustomFieldDefinition } from './view.js';

export const getCustomFieldDefinitionInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/custom-field-definitions/{id}`: one definition of the caller's workspace, archived or not. */
export const getCustomFieldDefinition = defineProcedure('getCustomFieldDefinition', getCustomFieldDefinitionInput, async (op, { id }): Promise<Versioned<CustomFieldDefinitionView>> => {
  const { auth } = op;
  const row = isUuid(id) ? await findCustomFieldDefinition(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw customFieldDefinitionNotFound();
  return versionedCustomFieldDefinition(row);
});
