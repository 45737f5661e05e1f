import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveProductGroup, createProductGroup, getProductGroup, invoke, listProductGroups, restoreProductGroup, updateProductGroup } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Hierarchical product groups (scopes product-groups:*); updates are compare-and-set, re-parenting never forms a cycle. */
@Controller()
export class ProductGroupsController {
  @Operation('listProductGroups')
  async listProductGroups(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProductGroups, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProductGroup')
  async createProductGroup(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProductGroup, op, { ...(input.body as object) });
    reply.header('location', `/v1/product-groups/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProductGroup')
  async getProductGroup(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProductGroup, op, { id: input.path.id }));
  }

  @Operation('updateProductGroup')
  async updateProductGroup(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProductGroup, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveProductGroup')
  async archiveProductGroup(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveProductGroup, op, { id: input.path.id });
  }

  @Operation('restoreProductGroup')
  async restoreProductGroup(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProductGroup, op, { id: input.path.id }));
  }
}
