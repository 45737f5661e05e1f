import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createWebhook, getWebhook, getWebhookDelivery, invoke, listWebhookDeliveries, listWebhooks, removeWebhook, updateWebhook } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Signed v2 webhook subscriptions (contract 6, scopes webhooks:*). The create response carries the one-time
 * signing secret and is never cached. Ownership (only the owning credential reads, changes, removes and reads the
 * deliveries; an administrator sees metadata and may only disable) is decided by the domain procedures.
 */
@Controller()
export class WebhooksController {
  @Operation('listWebhooks')
  async listWebhooks(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listWebhooks, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createWebhook')
  async createWebhook(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createWebhook, op, { ...(input.body as object) });
    reply.header('location', `/v1/webhooks/${created.id}`);
    return single(created);
  }

  @Operation('getWebhook')
  async getWebhook(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getWebhook, op, { id: input.path.id }));
  }

  @Operation('updateWebhook')
  async updateWebhook(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateWebhook, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('removeWebhook')
  async removeWebhook(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(removeWebhook, op, { id: input.path.id });
  }

  @Operation('listWebhookDeliveries')
  async listWebhookDeliveries(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listWebhookDeliveries, op, { id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getWebhookDelivery')
  async getWebhookDelivery(@Op() op: Op, @Input() input: OperationInput<Id & { deliveryId: string }>) {
    return single(await invoke(getWebhookDelivery, op, { id: input.path.id, deliveryId: input.path.deliveryId }));
  }
}
