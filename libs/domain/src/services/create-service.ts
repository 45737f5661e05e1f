import { z } from 'zod';
import { insertService } from '@workcell/db';
import { ServiceCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { type ServiceView, versionedService } from './view.js';

export const createServiceInput = z.object({ ...ServiceCreate.shape }).strict();

/** `POST /v1/services`: a new service (billable unless told otherwise, revision 1). Writes `service.created`. */
export const createService = defineProcedure('createService', createServiceInput, async (op, input): Promise<Versioned<ServiceView>> => {
  requireTypeGrant(op.auth, 'service', 'write', 'services');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const row = await insertService(tx, workspaceId, { name: input.name, description: input.description ?? null, billable: input.billable ?? true, defaultRate: input.defaultRate ?? null });
    const result = versionedService(row);
    await op.emit(tx, resourceEvent(op, { type: 'service', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
