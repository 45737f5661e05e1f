import { z } from 'zod';
import { findWebhook, findWebhookDelivery, listWebhookDeliveriesPage, type WebhookRecord } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure, type ProcedureContext } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { ownerOf } from './access.js';
import { type WebhookDeliveryView, webhookDeliveryView, webhookNotFound } from './view.js';

/**
 * Delivery history (contract 6): only the credential that owns the subscription (its creator or that
 * credential's rotation successor) reads it. Any other credential, even of the same member with every scope
 * or an administrator, gets 404, as if it did not exist.
 */
async function ownedWebhook(ctx: ProcedureContext, auth: V1AuthContext, id: string): Promise<WebhookRecord> {
  const row = isUuid(id) ? await findWebhook(ctx.database, auth.workspaceId, id.toLowerCase(), ownerOf(auth)) : null;
  if (!row) throw webhookNotFound();
  return row;
}

export const listWebhookDeliveriesInput = z.object({ id: z.string().max(64), status: z.enum(['pending', 'succeeded', 'failed']).optional(), ...pageInput }).strict();

/** `GET /v1/webhooks/{id}/deliveries`: the owner's view of its subscription's deliveries, oldest first. */
export const listWebhookDeliveries = defineProcedure(
  'listWebhookDeliveries',
  listWebhookDeliveriesInput,
  async (op, { id, status, cursor, limit }): Promise<{ items: WebhookDeliveryView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const webhook = await ownedWebhook(op, auth, id);
    const filter = status === undefined ? {} : { status };
    const scope = { workspaceId: auth.workspaceId, list: `listWebhookDeliveries:${webhook.id}`, filter };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      listWebhookDeliveriesPage(op.database, auth.workspaceId, webhook.id, auth.credential.id, filter, afterId, take),
    );
    const now = op.now();
    return { items: page.items.map((row) => webhookDeliveryView(row, now)), limit, nextCursor: page.nextCursor };
  },
);

export const getWebhookDeliveryInput = z.object({ id: z.string().max(64), deliveryId: z.string().max(64) }).strict();

/** `GET /v1/webhooks/{id}/deliveries/{deliveryId}`: one delivery, for the owner only. */
export const getWebhookDelivery = defineProcedure('getWebhookDelivery', getWebhookDeliveryInput, async (op, { id, deliveryId }): Promise<WebhookDeliveryView> => {
  const { auth } = op;
  const webhook = await ownedWebhook(op, auth, id);
  const row = isUuid(deliveryId) ? await findWebhookDelivery(op.database, auth.workspaceId, webhook.id, deliveryId.toLowerCase(), auth.credential.id) : null;
  if (!row) throw new DomainError('not_found', 'delivery not found');
  return webhookDeliveryView(row, op.now());
});
