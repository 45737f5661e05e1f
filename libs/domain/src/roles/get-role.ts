import { z } from 'zod';
import { findRole } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput } from '../kernel/inputs.js';
import { type RoleView, roleView } from './view.js';

export const getRoleInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/roles/{id}`: one role of the caller's workspace (an archived or foreign one is 404). */
export const getRole = defineProcedure('getRole', getRoleInput, async (ctx, { auth, id }): Promise<RoleView> => {
  const row = isUuid(id) ? await findRole(ctx.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'role not found');
  return roleView(row);
});
