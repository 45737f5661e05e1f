import { z } from 'zod';
import { findService, listServiceBillingRates } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ServiceBillingRatesView, serviceNotFound, versionedBillingRates } from './view.js';

export const getServiceBillingRatesInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/services/{id}/billing-rates` (services:read, contract 5.3): every rate of the service and the set's version. */
export const getServiceBillingRates = defineProcedure('getServiceBillingRates', getServiceBillingRatesInput, async (op, { id }): Promise<Versioned<ServiceBillingRatesView>> => {
  const { auth } = op;
  requireGrant(auth, 'service', id, 'read', 'service');
  const service = isUuid(id) ? await findService(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!service) throw serviceNotFound();
  return versionedBillingRates(service, await listServiceBillingRates(op.database, auth.workspaceId, service.id));
});
