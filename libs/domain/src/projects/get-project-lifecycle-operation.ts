import { z } from 'zod';
import { findLifecycleOperation } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import { requireProjectAccess } from '../kernel/visibility.js';

import { type LifecycleOperationView, lifecycleOperationView } from './lifecycle-view.js';

export const getProjectLifecycleOperationInput = z.object({ id: z.string().max(64), operationId: z.string().max(64) }).strict();

/** `GET /v1/projects/{id}/lifecycle-operations/{lifecycleOperationId}`: pollable to its end state; another workspace's is 404. */
export const getProjectLifecycleOperation = defineProcedure('getProjectLifecycleOperation', getProjectLifecycleOperationInput, async (op, { id, operationId }): Promise<LifecycleOperationView> => {
  const { auth } = op;
  requireGrant(auth, 'project', id, 'read', 'project');
  const row = isUuid(id) && isUuid(operationId) ? await findLifecycleOperation(op.database, auth.workspaceId, id.toLowerCase(), operationId.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'lifecycle operation not found');
  await requireProjectAccess(op.database, auth, row.projectId, 'read', 'lifecycle operation');
  return lifecycleOperationView(row);
});
