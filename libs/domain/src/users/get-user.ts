import { z } from 'zod';
import { findWorkspaceUser } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type UserView, userView } from './view.js';

export const getUserInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/users/{id}`: one user (membership id) of the caller's workspace; removed or foreign ones are 404. */
export const getUser = defineProcedure('getUser', getUserInput, async (op, { id }): Promise<UserView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findWorkspaceUser(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'user not found');
  return userView(row);
});
