import { z } from 'zod';
import { findGroup } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { type GroupView, groupView } from './view.js';

export const getGroupInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/groups/{id}`: one group of the caller's workspace (an archived or foreign one is 404). */
export const getGroup = defineProcedure('getGroup', getGroupInput, async (op, { id }): Promise<GroupView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findGroup(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'group not found');
  return groupView(row);
});
