import { z } from 'zod';
import { archiveServiceAccount } from '@workcell/db';
import { isResourceId, MANAGE_SERVICE_ACCOUNTS, notFound, requirePermission } from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';

export const deleteServiceAccountInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/service-accounts/{id}`: never a physical delete (its credentials and audit events refer to it).
 * The account is disabled and archived and every credential of it revoked, in one transaction; afterwards
 * it answers 404 everywhere, a second delete included.
 */
export const deleteServiceAccount = defineProcedure('deleteServiceAccount', deleteServiceAccountInput, async (op, input): Promise<{ deleted: true }> => {
  await requirePermission(op, op.auth, MANAGE_SERVICE_ACCOUNTS, 'deleting a service account');
  if (!isResourceId(input.id)) throw notFound('service account');
  const archived = await archiveServiceAccount(op.database, { workspaceId: op.auth.workspaceId, id: input.id, actor: actorOf(op.auth, op.requestId), now: op.now() });
  if (!archived) throw notFound('service account');
  return { deleted: true };
});
