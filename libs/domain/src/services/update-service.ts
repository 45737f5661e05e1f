import { z } from 'zod';
import { findService, updateServiceIfRevision } from '@workcell/db';
import { ServiceCreate, ServiceUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { findServiceOr404, serviceIdOf, type ServiceView, versionedService } from './view.js';

export const updateServiceInput = z.object({ id: z.string().max(64), ...ServiceUpdate.shape }).strict();

/**
 * `PATCH /v1/services/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale): the given
 * attributes. Writes `service.updated` in the same transaction.
 */
export const updateService = defineProcedure('updateService', updateServiceInput, async (op, input): Promise<Versioned<ServiceView>> => {
  requireGrant(op.auth, 'service', input.id, 'write', 'service');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = serviceIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findServiceOr404(tx, workspaceId, id);
    const values = {
      name: input.name ?? current.name,
      description: input.description === undefined ? current.description : input.description,
      billable: input.billable ?? current.billable,
      defaultRate: input.defaultRate === undefined ? (current.billingRate === null ? null : { amount: current.billingRate, currency: current.currency! }) : input.defaultRate,
    };
    const outcome = await updateServiceIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), values);
    if (outcome !== 'updated') throw casFailure(outcome, 'service');
    const result = versionedService((await findService(tx, workspaceId, id))!);
    const changed = Object.keys(ServiceCreate.shape).filter((k) => input[k as keyof typeof ServiceCreate.shape] !== undefined);
    await op.emit(tx, resourceEvent(op, { type: 'service', id, action: 'updated', view: { ...result.resource }, changed, at: now }));
    return result;
  });
});
