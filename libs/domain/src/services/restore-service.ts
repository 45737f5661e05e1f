import { z } from 'zod';
import { appendOutboxEvent, findService, inTransaction, setServiceArchived } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { writeInput } from '../kernel/inputs.js';
import { findServiceOr404, serviceIdOf, type ServiceView, versionedService } from './view.js';

export const restoreServiceInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `POST /v1/services/{id}/restore`: clears `archived_at` (a no-op when not archived). Writes `service.restored`. */
export const restoreService = defineProcedure('restoreService', restoreServiceInput, async (ctx, { auth, requestId, id: rawId }): Promise<Versioned<ServiceView>> => {
  requireGrant(auth, 'service', rawId, 'write', 'service');
  const workspaceId = auth.workspaceId;
  const id = serviceIdOf(rawId);
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    await findServiceOr404(tx, workspaceId, id);
    const restored = await setServiceArchived(tx, workspaceId, id, null);
    const result = versionedService((await findService(tx, workspaceId, id))!);
    if (restored) {
      await appendOutboxEvent(tx, { workspaceId, aggregateType: 'service', aggregateId: id, eventType: 'service.restored', payload: { service: { ...result.resource }, requestId }, occurredAt: now });
    }
    return result;
  });
});
