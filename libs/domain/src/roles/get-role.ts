import { z } from 'zod';
import { findRole } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type RoleView, roleView } from './view.js';

export const getRoleInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/roles/{id}`: one role of the caller's workspace (an archived or foreign one is 404). */
export const getRole = defineProcedure('getRole', getRoleInput, async (op, { id }): Promise<RoleView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findRole(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'role not found');
  return roleView(row);
});
