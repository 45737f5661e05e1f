import { z } from 'zod';
import { findServiceAccount } from '@workcell/db';
import { isResourceId, notFound } from '../credentials/access.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type ServiceAccountView, serviceAccountView } from './view.js';

export const getServiceAccountInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/service-accounts/{id}`: 404 for a deleted account and for an id of another workspace alike. */
export const getServiceAccount = defineProcedure('getServiceAccount', getServiceAccountInput, async (op, { id }): Promise<ServiceAccountView> => {
  const { auth } = op;
  const row = isResourceId(id) ? await findServiceAccount(op.database, auth.workspaceId, id) : null;
  if (!row) throw notFound('service account');
  return serviceAccountView(row);
});
