import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveService, createService, getService, getServiceBillingRates, invoke, listServices, replaceServiceBillingRates, restoreService, updateService } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Services and their billing rates (contract 2, scopes services:*; services:read reads the rates). Updates and
 * the whole-set rate replacement are compare-and-set on the service's version.
 */
@Controller()
export class ServicesController {
  @Operation('listServices')
  async listServices(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listServices, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createService')
  async createService(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createService, op, { ...(input.body as object) });
    reply.header('location', `/v1/services/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getService')
  async getService(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getService, op, { id: input.path.id }));
  }

  @Operation('updateService')
  async updateService(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateService, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveService')
  async archiveService(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveService, op, { id: input.path.id });
  }

  @Operation('restoreService')
  async restoreService(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreService, op, { id: input.path.id }));
  }

  @Operation('getServiceBillingRates')
  async getServiceBillingRates(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getServiceBillingRates, op, { id: input.path.id }));
  }

  @Operation('replaceServiceBillingRates')
  async replaceServiceBillingRates(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(replaceServiceBillingRates, op, { ...(input.body as object), id: input.path.id }));
  }
}
