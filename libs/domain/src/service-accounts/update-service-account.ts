import { z } from 'zod';
import { updateServiceAccount as writeServiceAccount } from '@workcell/db';
import { ServiceAccountUpdate } from '@workcell/registry';
import { isResourceId, MANAGE_SERVICE_ACCOUNTS, notFound, requirePermission } from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type ServiceAccountView, serviceAccountView } from './view.js';

export const updateServiceAccountInput = z.object({ id: z.string().max(64), ...ServiceAccountUpdate.shape }).strict();

/**
 * `PATCH /v1/service-accounts/{id}`: name, description, status. Disabling stops every credential of the
 * account on the next request (authentication checks the account's status); enabling resumes the unrevoked ones.
 */
export const updateServiceAccount = defineProcedure('updateServiceAccount', updateServiceAccountInput, async (op, input): Promise<ServiceAccountView> => {
  await requirePermission(op, op.auth, MANAGE_SERVICE_ACCOUNTS, 'changing a service account');
  if (!isResourceId(input.id)) throw notFound('service account');
  const row = await writeServiceAccount(op.database, {
    workspaceId: op.auth.workspaceId,
    id: input.id,
    changes: { name: input.name, description: input.description, status: input.status },
    actor: actorOf(op.auth, op.requestId),
    now: op.now(),
  });
  if (!row) throw notFound('service account');
  return serviceAccountView(row);
});
