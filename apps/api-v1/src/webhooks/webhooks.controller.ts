import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createWebhook, getWebhook, getWebhookDelivery, invoke, listWebhookDeliveries, listWebhooks, type ProcedureContext, removeWebhook, updateWebhook, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Signed v2 webhook subscriptions (contract 6, scopes webhooks:*). The create response carries the one-time
 * signing secret and is never cached. Ownership (only the owning credential reads, changes, removes and reads the
 * deliveries; an administrator sees metadata and may only disable) is decided by the domain procedures.
 */
@Controller()
export class WebhooksController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listWebhooks')
  async listWebhooks(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listWebhooks, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createWebhook')
  async createWebhook(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createWebhook, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/webhooks/${created.id}`);
    return single(created);
  }

  @Operation('getWebhook')
  async getWebhook(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getWebhook, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateWebhook')
  async updateWebhook(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateWebhook, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('removeWebhook')
  async removeWebhook(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(removeWebhook, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('listWebhookDeliveries')
  async listWebhookDeliveries(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listWebhookDeliveries, this.ctx, { auth, id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getWebhookDelivery')
  async getWebhookDelivery(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id & { deliveryId: string }>) {
    return single(await invoke(getWebhookDelivery, this.ctx, { auth, id: input.path.id, deliveryId: input.path.deliveryId }));
  }
}
