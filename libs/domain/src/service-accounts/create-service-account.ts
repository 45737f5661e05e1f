import { z } from 'zod';
import { createServiceAccount as insertServiceAccount } from '@workcell/db';
import { ServiceAccountCreate } from '@workcell/registry';
import { MANAGE_SERVICE_ACCOUNTS, requirePermission } from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type ServiceAccountView, serviceAccountView } from './view.js';

export const createServiceAccountInput = z.object({ ...ServiceAccountCreate.shape }).strict();

/** `POST /v1/service-accounts`: owned by the acting member, who needs settings.api.serviceAccounts.manage. */
export const createServiceAccount = defineProcedure('createServiceAccount', createServiceAccountInput, async (op, input): Promise<ServiceAccountView> => {
  const ownerMemberId = await requirePermission(op, op.auth, MANAGE_SERVICE_ACCOUNTS, 'creating a service account');
  const row = await insertServiceAccount(
    op.database,
    {
      workspaceId: op.auth.workspaceId,
      name: input.name,
      description: input.description ?? null,
      ownerMemberId,
      actor: actorOf(op.auth, op.requestId),
      now: op.now(),
    },
    { heldKey: op.idempotencyKey, answer: serviceAccountView },
  );
  return serviceAccountView(row);
});
