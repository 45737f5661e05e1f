import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveService,
  createService,
  getService,
  getServiceBillingRates,
  invoke,
  listServices,
  type ProcedureContext,
  replaceServiceBillingRates,
  restoreService,
  updateService,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Services and their billing rates (contract 2, scopes services:*; services:read reads the rates). Updates and
 * the whole-set rate replacement are compare-and-set on the service's version.
 */
@Controller()
export class ServicesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listServices')
  async listServices(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listServices, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createService')
  async createService(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createService, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/services/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getService')
  async getService(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getService, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateService')
  async updateService(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateService, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveService')
  async archiveService(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveService, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreService')
  async restoreService(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreService, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('getServiceBillingRates')
  async getServiceBillingRates(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getServiceBillingRates, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('replaceServiceBillingRates')
  async replaceServiceBillingRates(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(replaceServiceBillingRates, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }
}
