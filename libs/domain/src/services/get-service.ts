import { z } from 'zod';
import { findService } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { serviceNotFound, type ServiceView, versionedService } from './view.js';

export const getServiceInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/services/{id}`: one service of the caller's workspace, archived or not (another workspace's: 404). */
export const getService = defineProcedure('getService', getServiceInput, async (op, { id }): Promise<Versioned<ServiceView>> => {
  const { auth } = op;
  requireGrant(auth, 'service', id, 'read', 'service');
  const row = isUuid(id) ? await findService(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw serviceNotFound();
  return versionedService(row);
});
