import { z } from 'zod';
import { findService, listServiceBillingRates } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { authInput } from '../kernel/inputs.js';
import { type ServiceBillingRatesView, serviceNotFound, versionedBillingRates } from './view.js';

export const getServiceBillingRatesInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/services/{id}/billing-rates` (services:read, contract 5.3): every rate of the service and the set's version. */
export const getServiceBillingRates = defineProcedure('getServiceBillingRates', getServiceBillingRatesInput, async (ctx, { auth, id }): Promise<Versioned<ServiceBillingRatesView>> => {
  requireGrant(auth, 'service', id, 'read', 'service');
  const service = isUuid(id) ? await findService(ctx.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!service) throw serviceNotFound();
  return versionedBillingRates(service, await listServiceBillingRates(ctx.database, auth.workspaceId, service.id));
});
