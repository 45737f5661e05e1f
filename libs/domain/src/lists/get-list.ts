import { z } from 'zod';
import { findList } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ListView, versionedList } from './view.js';

export const getListInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/lists/{id}`: one list of the caller's workspace, archived or not (another workspace's: 404). */
export const getList = defineProcedure('getList', getListInput, async (op, { id }): Promise<Versioned<ListView>> => {
  const { auth } = op;
  requireGrant(auth, 'list', id, 'read', 'list');
  const row = isUuid(id) ? await findList(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'list not found');
  return versionedList(row);
});
